import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { type RequestContext, requirePartner } from '../../platform/graphql/context.js';
import { Price } from '../../platform/graphql/credits-directive.js';
import { evmPrimaryName } from './evm-primary-name.js';
import { toIdentityResult, toProviderStatus } from './map.js';
import { EvmPrimaryName, IdentitySearchPage, NamingProviderStatus } from './types.js';

@Resolver()
export class IdentityResolver {
  @Query(() => IdentitySearchPage, {
    description:
      'Finds names across naming services. A full name (`alice.eth`) is looked up by the service owning its suffix; ' +
      'a bare label (`alice`) under every enabled service, plus names starting with it. Exact matches first, MNS ' +
      'before other services, then by name. 1 credit; errors are free.',
  })
  @Price(1)
  async identitySearch(
    @Ctx() ctx: RequestContext,
    @Arg('query', { description: 'A full name or a bare label, at most 255 characters.' }) query: string,
    @Arg('page', () => Int, { defaultValue: 1, description: 'Page, from 1.' }) page: number,
    @Arg('perPage', () => Int, { defaultValue: 10, description: 'Results per page, 1 to 50.' }) perPage: number,
  ): Promise<IdentitySearchPage> {
    requirePartner(ctx);
    const { hits, total, totalIsExact, failed } = await ctx.services.identity.search({ query, page, perPage });
    return {
      results: hits.map(toIdentityResult),
      pagination: { page, perPage, total, totalIsExact, totalPages: Math.ceil(total / perPage) },
      unavailableProviders: failed,
    };
  }

  @Query(() => EvmPrimaryName, {
    nullable: true,
    description:
      "The primary name of an EVM address on a chain, as wallets show it (ENSIP-19): the chain's own reverse " +
      'record, else the `default.reverse` one, kept only if the name resolves back to the address on that chain. ' +
      'Null when there is none. Free.',
  })
  @Price(0)
  async evmPrimaryName(
    @Ctx() ctx: RequestContext,
    @Arg('address', { description: 'A 0x-prefixed 20-byte EVM address.' }) address: string,
    @Arg('chainId', () => Int, { defaultValue: 1, description: 'EVM chain id; 1 (Ethereum) by default.' })
    chainId: number,
  ): Promise<EvmPrimaryName | null> {
    requirePartner(ctx);
    return evmPrimaryName(ctx.services.naming, { address, chainId, timeoutMs: ctx.services.config.providerTimeoutMs });
  }

  @Query(() => [NamingProviderStatus], {
    description: 'The naming services identity search can consult, and why any of them is disabled. Free.',
  })
  @Price(0)
  namingProviders(@Ctx() ctx: RequestContext): NamingProviderStatus[] {
    return ctx.services.naming.all.map(toProviderStatus);
  }
}
