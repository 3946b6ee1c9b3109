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
registerEnumType(Color, { name: 'DirectColor' });

@InputType('DirectRange')
class Range {
  @Field(() => Int) from!: number;
  @Field(() => Int) to!: number;
  span(): number {
    return this.to - this.from;
  }
}

@ObjectType('DirectItem')
class Item {
  @Field() id!: string;
  // Read from `heading`: the default resolver would read `title`, so type-graphql's resolver stays.
  @Field({ name: 'title' }) heading!: string;
}

interface TestContext {
  calls: string[];
  user: string;
}

@Resolver(() => Item)
class DirectResolver {
  @Query(() => String)
  echo(@Arg('text') text: string, @Arg('times', () => Int) times: number, @Ctx() ctx: TestContext): string {
    ctx.calls.push('echo');
    return text.repeat(times);
  }

  @Query(() => [String])
  sorted(@Arg('list', () => [String]) list: string[], @Arg('color', () => Color) color: Color): string[] {
    // Sorting in place: the caller's variables must not change.
    return list.sort().map((s) => `${color}:${s}`);
  }

  @Query(() => Int)
  span(@Arg('range', () => Range) range: Range): number {
    // Only an instance of the input class has the method: type-graphql's own wrapper makes it.
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
    // A plain object: the field resolver below still gets an Item, as type-graphql converts a typed root.
    return { id: 'i1', heading: 'Hello' } as Item;
  }

  @FieldResolver(() => String)
  label(@Root() item: Item, @Arg('prefix') prefix: string): string {
    return `${prefix}${item.id}:${item instanceof Item}`;
  }
}

const built = buildSubgraph({ name: 'direct', resolvers: [DirectResolver] });

const run = (source: string, variableValues?: Record<string, unknown>) => {
  const contextValue: TestContext = { calls: [], user: 'ann' };
  return graphql({ schema: built.schema, source, contextValue, variableValues }).then((r) => ({
    ...r,
    calls: contextValue.calls,
  }));
};

describe('directResolvers', () => {
  it('replaces the plain handlers, keeps type-graphql for input types and middleware', () => {
    const fields = (type: string) =>
      (built.schema.getType(type) as { getFields(): Record<string, { resolve?: Function }> }).getFields();
    // type-graphql's handler is the one that calls its getParams.
    const kind = (type: string, name: string) =>
      fields(type)[name]?.resolve?.toString().includes('getParams') ? 'type-graphql' : 'direct';
    expect(['echo', 'sorted', 'failing', 'item'].map((f) => kind('Query', f))).toEqual(Array(4).fill('direct'));
    expect(kind('Mutation', 'whoami')).toBe('direct');
    expect(kind('DirectItem', 'label')).toBe('direct');
    expect(kind('Query', 'span')).toBe('type-graphql');
    expect(kind('Query', 'wrapped')).toBe('type-graphql');
    // A plain field has no resolver at all (graphql-js and graphql-jit read the property themselves).
    expect(fields('DirectItem').id?.resolve).toBeUndefined();
    expect(fields('DirectItem').title?.resolve).toBeDefined();
  });

  it('answers as type-graphql did: arguments, enums, lists, context, root and errors', async () => {
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
