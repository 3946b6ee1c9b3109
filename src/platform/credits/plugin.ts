import type {
  ApolloServerPlugin,
  GraphQLRequestContextDidResolveOperation,
  GraphQLRequestContextWillSendResponse,
} from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import {
  type FragmentDefinitionNode,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  getDirectiveValues,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { insufficientCredits, unauthenticated } from '../errors.js';
import type { PriceTable } from '../gateway/prices.js';
import type { RequestContext } from '../graphql/context.js';
import { recordCharges } from '../http/metrics.js';
import type { Charge, Reservation } from './ledger.js';

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
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  prices: PriceTable,
): RootField[] {
  const fields = new Map<string, RootField>();
  const visited = new Set<string>();
  const included = (node: SelectionNode) =>
    getDirectiveValues(GraphQLSkipDirective, node, variables)?.if !== true &&
    getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
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
        const fragment = fragments[selection.name.value];
        if (fragment) collect(fragment.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);
  return [...fields.values()];
}

/** Coerced variable values, or undefined when they do not coerce (execution then fails, unpaid). */
function coercedVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  raw: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const result = getVariableValues(schema, operation.variableDefinitions ?? [], raw ?? {}, { maxErrors: 1 });
  return result.coerced;
}

const plural = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/**
 * Charges each GraphQL operation the sum of its root fields' `@credits` prices: reserved before
 * execution (refused with INSUFFICIENT_CREDITS when the balance does not cover it), then charged per
 * root field that answered without error, the rest released — but only once the answer was handed to
 * the client with HTTP 200 (see delivery.ts). REST calls run through the same plugin.
 */
export function creditsPlugin(prices: PriceTable): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      let reservation: Reservation | undefined;
      let fields: RootField[] = [];
      return {
        async didResolveOperation(rc: GraphQLRequestContextDidResolveOperation<RequestContext>) {
          const operation = rc.operation;
          if (!operation) return;
          const fragments = Object.fromEntries(
            rc.document.definitions
              .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
              .map((d) => [d.name.value, d]),
          );
          const variables = coercedVariables(rc.schema, operation, rc.request.variables);
          // Variables that do not coerce fail execution before any resolver runs: nothing to charge.
          if (!variables) return;
          fields = rootFields(operation, fragments, variables, prices);
          const total = fields.reduce((sum, f) => sum + f.price, 0);
          if (total === 0) return;
          const ctx = rc.contextValue;
          if (!ctx.partner) {
            throw unauthenticated(`A valid x-api-key header is required for paid fields (${paidNames(fields)})`);
          }
          const label = ctx.operationLabel ?? paidNames(fields);
          const result = await ctx.services.ledger.reserve(ctx.partner.id, total, label, ctx.requestId);
          if (!result.ok) {
            throw insufficientCredits(
              `Insufficient credits: ${label} requires ${plural(total)}, but the balance available is ${plural(result.available)}`,
              { required: total, available: result.available },
            );
          }
          reservation = result.reservation;
          if (ctx.delivery) ctx.delivery.holdsCredits = true;
        },
        async willSendResponse(rc) {
          if (!reservation) {
            await announceCredits(rc, 0, 0);
            return;
          }
          const held = reservation;
          reservation = undefined;
          const body = rc.response.body;
          const result = body.kind === 'single' ? body.singleResult : undefined;
          const data = (result?.data ?? null) as Record<string, unknown> | null;
          const failed = new Set((result?.errors ?? []).map((e) => e.path?.[0]).filter((k) => k !== undefined));
          const requestFailed = !data || (result?.errors ?? []).some((e) => !e.path);
          const charges: Charge[] = requestFailed
            ? []
            : fields
                .filter((f) => f.price > 0 && f.responseKey in data && !failed.has(f.responseKey))
                .map((f) => ({ operation: f.fieldName, credits: f.price }));
          await announceCredits(
            rc,
            charges.reduce((sum, c) => sum + c.credits, 0),
            held.credits,
          );
          const ctx = rc.contextValue;
          const { ledger } = ctx.services;
          const onError = (err: unknown, attempt: number) =>
            ctx.log.error({ err, attempt }, 'credit settlement failed; retrying');
          const delivery = ctx.delivery;
          if (!delivery) {
            // Not over HTTP (an in-process call): the answer is handed over by returning it.
            if (await ledger.settleReliably(held, charges, ctx.requestId, { onError })) recordCharges(charges);
            return;
          }
          // An answer that charged nothing and carries errors is not worth replaying: a retry runs again.
          const keep = charges.length > 0 || !result?.errors?.length;
          delivery.onOutcome((outcome) => {
            const answered = outcome.delivered && outcome.statusCode === 200;
            if (!(answered && keep)) delivery.forgetAnswer?.();
            void ledger
              .settleReliably(held, answered ? charges : [], ctx.requestId, {
                onError,
                within: answered && keep ? delivery.recordAnswer : undefined,
              })
              .then((total) => {
                if (answered && total) recordCharges(charges);
              });
          });
        },
      };
    },
  };
}

/**
 * Tells the caller what this answer costs before it is sent (charges settle only once it is delivered):
 * `x-credits-charged` and, for a partner, `x-credits-remaining` (the balance once that charge settles),
 * as headers and as the `credits` extension of a GraphQL answer.
 */
async function announceCredits(
  rc: GraphQLRequestContextWillSendResponse<RequestContext>,
  charged: number,
  held: number,
): Promise<void> {
  const credits: { charged: number; remaining?: number } = { charged };
  const partner = rc.contextValue.partner;
  if (partner) {
    try {
      // The available balance still has this request's hold taken off.
      credits.remaining = (await rc.contextValue.services.ledger.available(partner.id)) + held - charged;
    } catch (err) {
      // A header is not worth failing an answer the partner is about to pay for.
      rc.contextValue.log.warn({ err }, 'could not read the balance for x-credits-remaining');
    }
  }
  rc.response.http.headers.set('x-credits-charged', String(charged));
  if (credits.remaining !== undefined) rc.response.http.headers.set('x-credits-remaining', String(credits.remaining));
  const body = rc.response.body;
  if (body.kind === 'single') body.singleResult.extensions = { ...body.singleResult.extensions, credits };
}

const paidNames = (fields: RootField[]) =>
  fields
    .filter((f) => f.price > 0)
    .map((f) => f.fieldName)
    .join(' + ');
