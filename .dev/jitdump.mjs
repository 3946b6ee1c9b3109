import 'reflect-metadata';
const { buildSubgraph } = await import('/work/main/dist/src/platform/graphql/subgraph.js');
const { resolutionSubgraph } = await import('/work/main/dist/src/features/resolution/index.js');
const { compileQuery } = await import('graphql-jit');
const { parse } = await import('graphql');
const { schema } = buildSubgraph(resolutionSubgraph);
const c = compileQuery(schema, parse('query($addresses: [String!]!, $caip2Id: String) { primaryNames(addresses: $addresses, caip2Id: $caip2Id) { address name owner } }'), undefined, { disablingCapturingStackErrors: true, debug: true });
console.log(c.__DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation ?? c.query.toString());
