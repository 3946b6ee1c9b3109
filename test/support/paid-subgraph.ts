import { Arg, Int, Query, Resolver } from 'type-graphql';
import { subgraphs } from '../../src/features/index.js';
import { badInput, upstreamUnavailable } from '../../src/platform/errors.js';
import { Price } from '../../src/platform/graphql/credits-directive.js';
import type { SubgraphDefinition } from '../../src/platform/graphql/subgraph.js';

/**
 * A subgraph of paid fields with known prices and failure modes, composed beside the real ones so the
 * credit machinery is tested on its own, whatever prices the product's fields carry.
 */
@Resolver()
class MeteredResolver {
  @Query(() => String)
  @Price(1)
  meteredEcho(@Arg('text') text: string): string {
    return text;
  }

  @Query(() => Int)
  @Price(2)
  meteredTwo(): number {
    return 2;
  }

  @Query(() => String, { nullable: true })
  @Price(3)
  meteredFails(@Arg('how', { defaultValue: 'upstream' }) how: string): string {
    throw how === 'input' ? badInput('bad input on purpose') : upstreamUnavailable('upstream down on purpose');
  }

  @Query(() => String, { nullable: true })
  @Price(1)
  meteredBug(): string {
    throw new Error('secret internal detail');
  }

  @Query(() => String)
  @Price(1)
  async meteredSlow(@Arg('ms', () => Int) ms: number): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return 'slow';
  }
}

export const meteredSubgraph: SubgraphDefinition = { name: 'metered', resolvers: [MeteredResolver] };
export const withMetered = (): SubgraphDefinition[] => [...subgraphs, meteredSubgraph];
