import { GraphQLError, graphql } from 'graphql';
import {
  Arg,
  Ctx,
  Field,
  FieldResolver,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
  registerEnumType,
  UseMiddleware,
} from 'type-graphql';
import { describe, expect, it } from 'vitest';
import { buildSubgraph } from './subgraph.js';

enum Color {
  RED = 'red',
  BLUE = 'blue',
}
registerEnumType(Color, { name: 'SubColor' });

@InputType('SubRange')
class Range {
  @Field(() => Int) from!: number;
  @Field(() => Int) to!: number;
  span(): number {
    return this.to - this.from;
  }
}

@ObjectType('SubItem')
class Item {
  @Field() id!: string;
  // Read from `heading`: a renamed field still reads its property.
  @Field({ name: 'title' }) heading!: string;
}

interface TestContext {
  calls: string[];
  user: string;
}

@Resolver(() => Item)
class SubResolver {
  @Query(() => String)
  echo(@Arg('text') text: string, @Arg('times', () => Int) times: number, @Ctx() ctx: TestContext): string {
    ctx.calls.push('echo');
    return text.repeat(times);
  }

  @Query(() => [String])
  sorted(@Arg('list', () => [String]) list: string[], @Arg('color', () => Color) color: Color): string[] {
    // Sorting in place must not change the caller's variables.
    return list.sort().map((s) => `${color}:${s}`);
  }

  @Query(() => Int)
  span(@Arg('range', () => Range) range: Range): number {
    // Only an instance of the input class has the method.
    return range.span();
  }

  @Query(() => String)
  @UseMiddleware(async (_data, next) => `mw:${await next()}`)
  wrapped(): string {
    return 'inner';
  }

  @Query(() => String)
  failing(@Arg('why') why: string): string {
    throw new GraphQLError(why, { extensions: { code: 'BAD_USER_INPUT' } });
  }

  @Mutation(() => String)
  whoami(@Ctx('user') user: string): string {
    return user;
  }

  @Query(() => Item)
  item(): Item {
    // A plain object: the field resolver below still gets an Item (a typed root is converted).
    return { id: 'i1', heading: 'Hello' } as Item;
  }

  @FieldResolver(() => String)
  label(@Root() item: Item, @Arg('prefix') prefix: string): string {
    return `${prefix}${item.id}:${item instanceof Item}`;
  }
}

const built = buildSubgraph({ name: 'sub', resolvers: [SubResolver] });

const run = (source: string, variableValues?: Record<string, unknown>) => {
  const contextValue: TestContext = { calls: [], user: 'ann' };
  return graphql({ schema: built.schema, source, contextValue, variableValues }).then((r) => ({
    ...r,
    calls: contextValue.calls,
  }));
};

describe('buildSubgraph', () => {
  it("answers through type-graphql's resolvers: arguments, enums, lists, input types, middleware, context, root and errors", async () => {
    expect((await run('{ echo(text: "ab", times: 2) }')).data).toEqual({ echo: 'abab' });
    expect((await run('{ echo(text: "ab", times: 2) }')).calls).toEqual(['echo']);
    const list = ['b', 'a'];
    const sorted = await run('query($l: [String!]!) { sorted(list: $l, color: BLUE) }', { l: list });
    expect(sorted.data).toEqual({ sorted: ['blue:a', 'blue:b'] });
    expect(list).toEqual(['b', 'a']);
    expect((await run('{ span(range: { from: 2, to: 7 }) }')).data).toEqual({ span: 5 });
    expect((await run('{ wrapped }')).data).toEqual({ wrapped: 'mw:inner' });
    expect((await run('mutation { whoami }')).data).toEqual({ whoami: 'ann' });
    expect((await run('{ item { id title label(prefix: "#") } }')).data).toEqual({
      item: { id: 'i1', title: 'Hello', label: '#i1:true' },
    });
    const failed = await run('{ failing(why: "no") }');
    expect(failed.errors?.[0]?.message).toBe('no');
    expect(failed.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(failed.errors?.[0]?.path).toEqual(['failing']);
  });
});
