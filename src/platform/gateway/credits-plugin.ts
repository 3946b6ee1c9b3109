import type { ApolloServerPlugin } from '@apollo/server';
import { creditHeaders, OperationCharge, remainingAfter } from '../credits/charging.js';
import type { PriceTable } from '../credits/prices.js';
import type { RequestContext } from '../graphql/context.js';
import { priceOperation } from './pipeline.js';

/**
 * Charges each operation that Apollo Server's pipeline runs on /graphql (GET, batches, persisted queries,
 * multi-fetch plans) through the same `OperationCharge` as the operation pipeline: held once the
 * operation is resolved, closed with the answer, announced in its headers and `credits` extension.
 */
export function creditsPlugin(prices: PriceTable): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      let charge: OperationCharge | undefined;
      return {
        async didResolveOperation(rc) {
          if (!rc.operation) return;
          const fields = priceOperation(rc.schema, rc.document, rc.operationName, rc.request.variables, prices);
          // Variables that do not coerce fail execution before any resolver runs: nothing to charge.
          if (!fields) return;
          const ctx = rc.contextValue;
          charge = await OperationCharge.open(ctx.services.ledger, ctx, fields);
        },
        async willSendResponse(rc) {
          const body = rc.response.body;
          const result = body.kind === 'single' ? body.singleResult : undefined;
          const pending = charge;
          charge = undefined;
          const ctx = rc.contextValue;
          const credits = pending
            ? await pending.close({
                data: result?.data as Record<string, unknown> | null | undefined,
                errors: result?.errors,
              })
            : // Refused before its operation was resolved: the partner still learns their balance.
              ctx.partner
              ? await remainingAfter(ctx.services.ledger, ctx, ctx.partner.id, 0, 0)
              : { charged: 0 };
          for (const [name, value] of Object.entries(creditHeaders(credits))) rc.response.http.headers.set(name, value);
          if (result) result.extensions = { ...result.extensions, credits };
        },
      };
    },
  };
}
