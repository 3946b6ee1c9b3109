import {
  type FragmentDefinitionNode,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  getDirectiveValues,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { PriceTable } from './prices.js';

export interface RootField {
  /** Alias or field name: where the field's answer lands in `data`. */
  responseKey: string;
  fieldName: string;
  price: number;
}

/**
 * The root fields an operation will execute, one per response key, as GraphQL execution collects them:
 * fields merged under one key (`{ a { x } a { y } }`, a fragment spread three times) run once and are
 * charged once; `@skip`/`@include` are honoured. Each carries its price; a field without one is a bug in
 * the schema, so it fails here rather than being served free.
 */
export function rootFields(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  prices: PriceTable,
): RootField[] {
  return collectRootFields(operation, fragments, variables, prices).fields;
}

/**
 * `rootFields`, and whether any selection it looked at carries a directive (`@skip`/`@include` may read
 * variables). Where none does, the fields are the same for every request of the operation, so a caller
 * may keep them.
 */
export function collectRootFields(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  prices: PriceTable,
): { fields: RootField[]; directed: boolean } {
  const fields = new Map<string, RootField>();
  const visited = new Set<string>();
  let directed = false;
  const included = (node: SelectionNode) => {
    if (!node.directives?.length) return true;
    directed = true;
    return (
      getDirectiveValues(GraphQLSkipDirective, node, variables)?.if !== true &&
      getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false
    );
  };
  const collect = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        const fieldName = selection.name.value;
        const responseKey = selection.alias?.value ?? fieldName;
        if (fieldName.startsWith('__') || fields.has(responseKey)) continue;
        const price = prices.get(`${operation.operation}.${fieldName}`);
        if (price === undefined) throw new Error(`root field ${operation.operation}.${fieldName} has no price`);
        fields.set(responseKey, { responseKey, fieldName, price });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else if (!visited.has(selection.name.value)) {
        visited.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) collect(fragment.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);
  return { fields: [...fields.values()], directed };
}
