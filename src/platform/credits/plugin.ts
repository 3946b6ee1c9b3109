import type { ApolloServerPlugin } from '@apollo/server';
import {
  type FragmentDefinitionNode,
  type GraphQLSchema,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
} from 'graphql';
import type { PriceTable } from '../gateway/prices.js';
import type { RequestContext } from '../graphql/context.js';
import { creditHeaders, RequestCharge } from './charging.js';
import { rootFields } from './root-fields.js';

/** Coerced variable values, or undefined when they do not coerce (execution then fails, unpaid). */
function coercedVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  raw: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const result = getVariableValues(schema, operation.variableDefinitions ?? [], raw ?? {}, { maxErrors: 1 });
  return result.coerced;
}

/**
 * Charges each operation that Apollo's pipeline runs on /graphql the sum of its root fields' `@credits`
 * prices (see charging.ts): reserved once the operation is resolved, settled from the answer.
 */
export function creditsPlugin(prices: PriceTable): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      let charge: RequestCharge | undefined;
      return {
        async didResolveOperation(rc) {
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
          charge = await RequestCharge.open(rc.contextValue, rootFields(operation, fragments, variables, prices));
        },
        async willSendResponse(rc) {
          const body = rc.response.body;
          const result = body.kind === 'single' ? body.singleResult : undefined;
          const pending = charge;
          charge = undefined;
          const credits = pending
            ? await pending.close({
                data: result?.data as Record<string, unknown> | null | undefined,
                errors: result?.errors,
              })
            : { charged: 0, ...(await remainingOnly(rc.contextValue)) };
          for (const [name, value] of Object.entries(creditHeaders(credits))) rc.response.http.headers.set(name, value);
          if (result) result.extensions = { ...result.extensions, credits };
        },
      };
    },
  };
}

/** A request refused before its operation was resolved still tells a partner their balance. */
async function remainingOnly(ctx: RequestContext): Promise<{ remaining?: number }> {
  if (!ctx.partner) return {};
  try {
    return { remaining: await ctx.services.ledger.available(ctx.partner.id) };
  } catch (err) {
    ctx.log.warn({ err }, 'could not read the balance for x-credits-remaining');
    return {};
  }
}
