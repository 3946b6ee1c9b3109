import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { type DocumentNode, type GraphQLSchema, parse } from 'graphql';
import { buildSchemaSync, createResolversMap, type NonEmptyArray } from 'type-graphql';
import { CREDITS_DIRECTIVE_SDL, CREDITS_SPEC_URL } from './credits-directive.js';

/** What a subgraph folder exports: its type-graphql resolvers plus federation entity reference resolvers. */
export interface SubgraphDefinition {
  name: string;
  resolvers: NonEmptyArray<Function>;
  orphanedTypes?: Function[];
  /** `__resolveReference` per entity type this subgraph can resolve. */
  references?: Record<string, (reference: Record<string, unknown>, context: unknown) => unknown>;
}

export interface BuiltSubgraph {
  name: string;
  sdl: string;
  typeDefs: DocumentNode;
  schema: GraphQLSchema;
}

const FEDERATION_HEADER = `extend schema
  @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@composeDirective"])
  @link(url: "${CREDITS_SPEC_URL}", import: ["@credits"])
  @composeDirective(name: "@credits")

${CREDITS_DIRECTIVE_SDL}
`;

/** The resolver map `buildSubgraphSchema` takes, as its published signature declares it. */
type SubgraphResolvers = NonNullable<
  Extract<Parameters<typeof buildSubgraphSchema>[0], { typeDefs: unknown }>['resolvers']
>;

/** type-graphql wants a PubSub to build any subscription; ours bring their own `subscribe` and use no topics. */
const noTopics = {
  publish() {},
  subscribe(): AsyncIterable<unknown> {
    throw new Error('subscriptions declare their own subscribe function; topics are not used');
  },
};

/** Builds a federation 2 subgraph schema from type-graphql classes, keeping directives in its SDL. */
export function buildSubgraph(def: SubgraphDefinition): BuiltSubgraph {
  const typeSchema = buildSchemaSync({
    resolvers: def.resolvers,
    orphanedTypes: def.orphanedTypes,
    skipCheck: true,
    validate: false,
    pubSub: noTopics,
  });
  const sdl = `${FEDERATION_HEADER}\n${printSchemaWithDirectives(typeSchema)}`;
  // Without locations: the schema keeps these nodes for the process's life, and with locations each holds
  // the whole SDL's token list; composition reports its errors by message (compose.ts), never by position.
  const typeDefs = parse(sdl, { noLocation: true });
  // The field resolvers of the schema type-graphql built; its declared map type is looser than Apollo's.
  const resolvers = createResolversMap(typeSchema) as SubgraphResolvers;
  for (const [typeName, resolveReference] of Object.entries(def.references ?? {})) {
    resolvers[typeName] = { ...(resolvers[typeName] as object), __resolveReference: resolveReference };
  }
  const schema = buildSubgraphSchema({ typeDefs, resolvers });
  return { name: def.name, sdl, typeDefs, schema };
}
