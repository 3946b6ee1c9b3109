import type { ApolloServerPlugin, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import { type FragmentDefinitionNode, Kind, type SelectionSetNode } from 'graphql';
import type { PriceTable } from '../gateway/prices.js';
import type { RequestContext } from '../graphql/context.js';
import { insufficientCredits, unauthenticated } from '../graphql/errors.js';
import type { Reservation } from './ledger.js';

interface RootField {
  /** Alias or field name: where the field's answer lands in `data`. */
  responseKey: string;
  fieldName: string;
  price: number;
}

/** The root fields an operation selects, following fragments, each with its price. */
export function rootFields(
  selectionSet: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  prices: PriceTable,
  out: RootField[] = [],
): RootField[] {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const fieldName = selection.name.value;
      if (fieldName.startsWith('__')) continue;
      out.push({ responseKey: selection.alias?.value ?? fieldName, fieldName, price: prices.get(fieldName) ?? 0 });
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      rootFields(selection.selectionSet, fragments, prices, out);
    } else {
      const fragment = fragments[selection.name.value];
      if (fragment) rootFields(fragment.selectionSet, fragments, prices, out);
    }
  }
  return out;
}

const plural = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/**
 * Charges each GraphQL operation the sum of its root fields' `@credits` prices: reserved before
 * execution (refused with INSUFFICIENT_CREDITS when the balance does not cover it), then charged per
 * root field that answered without error, the rest released. REST calls run through the same plugin.
 */
export function creditsPlugin(prices: PriceTable): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      let reservation: Reservation | undefined;
      let fields: RootField[] = [];
      return {
        async didResolveOperation(rc: GraphQLRequestContextDidResolveOperation<RequestContext>) {
          const operation = rc.operation;
          if (operation?.operation !== 'query') return;
          const fragments = Object.fromEntries(
            rc.document.definitions
              .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
              .map((d) => [d.name.value, d]),
          );
          fields = rootFields(operation.selectionSet, fragments, prices);
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
        },
        async willSendResponse(rc) {
          if (!reservation) return;
          const held = reservation;
          reservation = undefined;
          const body = rc.response.body;
          const result = body.kind === 'single' ? body.singleResult : undefined;
          const data = (result?.data ?? null) as Record<string, unknown> | null;
          const failed = new Set((result?.errors ?? []).map((e) => e.path?.[0]).filter((k) => k !== undefined));
          const requestFailed = !data || (result?.errors ?? []).some((e) => !e.path);
          const charges = requestFailed
            ? []
            : fields
                .filter((f) => f.price > 0 && f.responseKey in data && !failed.has(f.responseKey))
                .map((f) => ({ operation: f.fieldName, credits: f.price }));
          const ctx = rc.contextValue;
          try {
            await ctx.services.ledger.settle(held, charges, ctx.requestId);
          } catch (err) {
            // The answer is already computed; a failed settlement leaves the hold to the sweeper.
            ctx.log.error({ err }, 'credit settlement failed');
          }
        },
      };
    },
  };
}

const paidNames = (fields: RootField[]) =>
  fields
    .filter((f) => f.price > 0)
    .map((f) => f.fieldName)
    .join(' + ');
