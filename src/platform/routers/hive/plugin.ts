import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import type { FastifyBaseLogger } from 'fastify';
import { type ExecutionResult, GraphQLError } from 'graphql';
import { OperationCharge } from '../../credits/charging.js';
import type { Delivery } from '../../credits/delivery.js';
import type { CreditLedger } from '../../credits/ledger.js';
import type { PriceTable } from '../../credits/prices.js';
import { AppError, ErrorCode, httpStatusOf } from '../../errors.js';
import { priceOperation } from '../../gateway/pipeline.js';
import { GATEWAY_TOKEN_HEADER, signGatewayToken } from '../../gateway/subgraph-token.js';
import type { AuthenticatedPartner } from '../../graphql/context.js';
import { httpStatusOfResult } from '../../graphql/errors.js';
import { type GraphqlLimits, knownRootOperationRule, limitsValidationRule } from '../../graphql/limits.js';

/** What the HTTP layer (auth, rate limits, delivery) learnt about a request, handed to the gateway. */
export interface Caller {
  partner: AuthenticatedPartner | null;
  requestId: string;
  delivery: Delivery | null;
  log: FastifyBaseLogger;
}

export interface CipgateContext {
  cipgate?: Caller;
}

export interface CreditsPluginOptions {
  prices: PriceTable;
  ledger: CreditLedger;
  subgraphSecret: string;
  subgraphTimeoutMs: number;
  limits: GraphqlLimits;
}

/** An error as cipgate's gateway shapes it; `http.status` sets Yoga's status and is not sent. */
const codedError = (message: string, code: string, extra: Record<string, unknown> = {}) =>
  new GraphQLError(message, { extensions: { ...extra, code, http: { status: httpStatusOf[code] ?? 500 } } });

const unavailableResponse = () =>
  Response.json({
    errors: [
      { message: 'A backing service is unavailable; try again shortly', extensions: { code: 'UPSTREAM_UNAVAILABLE' } },
    ],
  });

/** Codes whose message may carry internals: the caller sees a fixed message, the log keeps the original. */
const INTERNAL = new Set([undefined, 'INTERNAL_SERVER_ERROR', 'DOWNSTREAM_SERVICE_ERROR']);

/**
 * cipgate's rules inside Hive Gateway's execution hooks: the operation's root fields are priced from the
 * supergraph's `@credits` and held on the ledger before anything runs (refused with UNAUTHENTICATED or
 * INSUFFICIENT_CREDITS), the fields that answered are charged once the answer reached the client with a
 * 200, and every subgraph fetch carries the signed gateway token the subgraphs require.
 */
export function cipgatePlugin(options: CreditsPluginOptions): GatewayPlugin<CipgateContext> {
  const { prices, ledger } = options;
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(knownRootOperationRule);
      addValidationRule(limitsValidationRule(options.limits));
    },
    onExecute({ args, setResultAndStopExecution }) {
      const caller = (args.contextValue as CipgateContext).cipgate;
      if (!caller) throw new Error('cipgate caller missing from the gateway context');
      const fields = priceOperation(
        args.schema,
        args.document,
        args.operationName,
        args.variableValues as Record<string, unknown> | undefined,
        prices,
      );
      const finish =
        (charge: OperationCharge | undefined) =>
        async ({ result, setResult }: { result: unknown; setResult: (r: ExecutionResult) => void }) => {
          if (!result || typeof result !== 'object' || Symbol.asyncIterator in result) {
            // An incremental answer (@defer, subscriptions) is not a single 200 we can charge for: release.
            if (charge) await charge.close({ data: null });
            return;
          }
          const shaped = shapeErrors(result as ExecutionResult, caller);
          const credits = charge
            ? await charge.close({
                data: shaped.data as Record<string, unknown> | null | undefined,
                errors: shaped.errors,
              })
            : { charged: 0 };
          shaped.extensions = { ...shaped.extensions, credits };
          setResult(shaped);
        };
      if (!fields) return { onExecuteDone: finish(undefined) };
      const refuse = (err: unknown) => {
        if (!(err instanceof AppError)) throw err;
        setResultAndStopExecution({ errors: [codedError(err.message, err.code, err.details)] });
      };
      try {
        const opened = OperationCharge.open(ledger, caller, fields);
        if (!(opened instanceof Promise)) return { onExecuteDone: finish(opened) };
        return opened.then((charge) => ({ onExecuteDone: finish(charge) }), refuse);
      } catch (err) {
        refuse(err);
        return;
      }
    },
    onFetch({ context, executionRequest, fetchFn, setFetchFn }) {
      // Only subgraph fetches carry an execution request; the supergraph is given, never fetched.
      const caller = (context as CipgateContext | undefined)?.cipgate;
      if (!executionRequest) return;
      const token = signGatewayToken(options.subgraphSecret, {
        partnerId: caller?.partner?.id ?? null,
        keyId: caller?.partner?.keyId ?? null,
        requestId: caller?.requestId ?? 'hive',
      });
      setFetchFn(async (url, init, ...rest) => {
        const headers: Record<string, string> = { ...init?.headers, [GATEWAY_TOKEN_HEADER]: token };
        if (caller) headers['x-request-id'] = caller.requestId;
        try {
          // A stalled subgraph must not hold the caller's request open.
          const signal = AbortSignal.timeout(options.subgraphTimeoutMs);
          const response = await fetchFn(url, { ...init, headers, signal }, ...rest);
          // Our token refused (secrets differ) or a proxy's 5xx: an outage, a free 503, not a bug.
          if (response.status === 401 || response.status >= 500) {
            caller?.log.warn({ url, status: response.status }, 'remote subgraph unavailable');
            return unavailableResponse();
          }
          return response;
        } catch (err) {
          caller?.log.warn({ err, url }, 'remote subgraph unavailable');
          return unavailableResponse();
        }
      });
    },
  };
}

/**
 * Error answers as cipgate's gateway gives them: internals hidden behind a fixed message (logged in full),
 * Hive's own keys dropped, and the HTTP status following the errors (src/platform/graphql/errors.ts).
 */
function shapeErrors(result: ExecutionResult, caller: Caller): ExecutionResult {
  if (!result.errors?.length) return { ...result };
  const errors = result.errors.map((error) => {
    const { http: _h, serviceName: _s, exception: _e, ...extensions } = error.extensions ?? {};
    const code = extensions.code as string | undefined;
    if (INTERNAL.has(code)) {
      caller.log.error({ err: error.originalError ?? error, path: error.path }, 'GraphQL field failed');
      return new GraphQLError('Internal server error', {
        path: error.path,
        extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
      });
    }
    return new GraphQLError(error.message, { path: error.path, extensions });
  });
  const shaped: ExecutionResult = { ...result, errors };
  const status = httpStatusOfResult({
    data: shaped.data as Record<string, unknown> | null | undefined,
    errors: errors.map((e) => e.toJSON()),
  });
  const first = errors[0];
  if (status !== undefined && first) (first.extensions as Record<string, unknown>).http = { status };
  return shaped;
}
