import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
} from 'graphql';
import { type RootField, rootFields } from '../credits/root-fields.js';
import type { PriceTable } from '../gateway/prices.js';

/** What a router needs to hold before running an operation: its paid root fields and their total. */
export interface PricedOperation {
  operation: OperationDefinitionNode;
  fields: RootField[];
  total: number;
  /** The paid fields, for messages (`meteredEcho + meteredTwo`). */
  label: string;
}

/**
 * Prices one operation as cipgate's own gateway does (src/platform/credits/plugin.ts), for routers that
 * hand us the document instead of running Apollo Server. Undefined when the operation cannot run (unknown
 * operation name, variables that do not coerce): execution then fails before any resolver, so it is free.
 */
export function priceOperation(
  schema: GraphQLSchema | undefined,
  document: DocumentNode,
  operationName: string | null | undefined,
  rawVariables: Record<string, unknown> | null | undefined,
  prices: PriceTable,
): PricedOperation | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  const fragments = Object.fromEntries(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  let variables: Record<string, unknown> | undefined = rawVariables ?? {};
  if (schema) {
    variables = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {}, {
      maxErrors: 1,
    }).coerced;
  }
  if (!variables) return undefined;
  const fields = rootFields(operation, fragments, variables, prices);
  const paid = fields.filter((f) => f.price > 0);
  return {
    operation,
    fields,
    total: paid.reduce((sum, f) => sum + f.price, 0),
    label: paid.map((f) => f.fieldName).join(' + '),
  };
}

interface ResultLike {
  data?: Record<string, unknown> | null;
  errors?: readonly { path?: readonly (string | number)[] }[];
}

/**
 * The charges an answer earns: each paid root field that answered without error. An answer without data,
 * or with an error outside every field (the request failed), earns nothing.
 */
export function chargesFor(fields: RootField[], result: ResultLike): { operation: string; credits: number }[] {
  const data = result.data ?? null;
  const errors = result.errors ?? [];
  if (!data || errors.some((e) => !e.path?.length)) return [];
  const failed = new Set(errors.map((e) => e.path?.[0]));
  return fields
    .filter((f) => f.price > 0 && f.responseKey in data && !failed.has(f.responseKey))
    .map((f) => ({ operation: f.fieldName, credits: f.price }));
}

/** The same words cipgate's gateway uses, so a client parses one message whichever router answered. */
export { insufficientMessage } from '../credits/charging.js';
