import type { DocumentNode, FragmentDefinitionNode } from 'graphql';
import { Kind } from 'graphql';

export type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

const byDocument = new WeakMap<DocumentNode, Fragments>();

/**
 * A document's fragments by name, built once per parsed document: the map every walker of its operations
 * (pricing, the cost estimate) reads.
 */
export function fragmentsOf(document: DocumentNode): Fragments {
  let fragments = byDocument.get(document);
  if (!fragments) {
    const map = new Map<string, FragmentDefinitionNode>();
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) map.set(d.name.value, d);
    fragments = map;
    byDocument.set(document, fragments);
  }
  return fragments;
}
