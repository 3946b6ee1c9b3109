import { Kind, parse, type ValueNode } from 'graphql';

/** Price in credits of each Query root field, read from the `@credits` directives of the supergraph. */
export type PriceTable = ReadonlyMap<string, number>;

export function readPrices(supergraphSdl: string): PriceTable {
  const prices = new Map<string, number>();
  for (const def of parse(supergraphSdl).definitions) {
    if (
      (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.OBJECT_TYPE_EXTENSION) ||
      def.name.value !== 'Query'
    )
      continue;
    for (const field of def.fields ?? []) {
      const directive = field.directives?.find((d) => d.name.value === 'credits');
      const arg = directive?.arguments?.find((a) => a.name.value === 'price')?.value as ValueNode | undefined;
      prices.set(field.name.value, arg?.kind === Kind.INT ? Number(arg.value) : 0);
    }
  }
  return prices;
}
