import { Kind, parse, type ValueNode } from 'graphql';

/**
 * Price in credits of every root field, keyed `query.<field>`, `mutation.<field>`,
 * `subscription.<field>`, read from the `@credits` directives of the supergraph.
 */
export type PriceTable = ReadonlyMap<string, number>;

export class UnpricedFieldError extends Error {
  override name = 'UnpricedFieldError';
}

const ROOT_TYPES: Record<string, string> = { Query: 'query', Mutation: 'mutation', Subscription: 'subscription' };

/**
 * Prices fail closed: a root field of any operation type without `@credits(price: N)` (0 included,
 * written out) stops composition, so a new field can never be served free by omission.
 */
export function readPrices(supergraphSdl: string): PriceTable {
  const prices = new Map<string, number>();
  const unpriced: string[] = [];
  for (const def of parse(supergraphSdl).definitions) {
    if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    const operation = ROOT_TYPES[def.name.value];
    if (!operation) continue;
    for (const field of def.fields ?? []) {
      // Federation's own entry points (_entities, _service) never reach the API schema.
      if (field.name.value.startsWith('_')) continue;
      const directive = field.directives?.find((d) => d.name.value === 'credits');
      const arg = directive?.arguments?.find((a) => a.name.value === 'price')?.value as ValueNode | undefined;
      if (arg?.kind !== Kind.INT) unpriced.push(`${def.name.value}.${field.name.value}`);
      else prices.set(`${operation}.${field.name.value}`, Number(arg.value));
    }
  }
  if (unpriced.length) {
    throw new UnpricedFieldError(
      `Every root field must declare its credit price with @credits(price: N) (0 for free fields); missing on ${unpriced.join(', ')}`,
    );
  }
  return prices;
}
