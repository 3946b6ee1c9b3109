import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { buildSchema, type DocumentNode, parse } from 'graphql';
import {
  type ChargedResult,
  chargesFor,
  type HeldCharge,
  OperationCharge,
  type Payer,
  priceOf,
} from '../../credits/charging.js';
import type { Charge, CreditLedger } from '../../credits/ledger.js';
import type { PriceTable } from '../../credits/prices.js';
import { AppError, ErrorCode, httpStatusOf } from '../../errors.js';
import { priceOperation } from '../../gateway/pipeline.js';
import { GATEWAY_TOKEN_HEADER, signGatewayToken } from '../../gateway/subgraph-token.js';
import type { AuthenticatedPartner } from '../../graphql/context.js';

/**
 * One exchange of Apollo Router's coprocessor protocol (version 1): the Router posts the stage's data and
 * applies what comes back. Headers are `name → values`; `body` is a string at the Router stages and JSON
 * at the others; `context.entries` travels from stage to stage of one client request.
 */
export interface CoprocessorPayload {
  version: number;
  stage: string;
  control: 'continue' | { break: number };
  id: string;
  headers?: Record<string, string[]>;
  body?: unknown;
  context?: { entries?: Record<string, unknown> };
  statusCode?: number;
  [key: string]: unknown;
}

export interface CoprocessorOptions {
  /** ROUTER_COPROCESSOR_SECRET: the Router's coprocessor URL carries it as `?secret=`. */
  secret: string;
  subgraphSecret: string;
  prices: PriceTable;
  /** The API schema, to coerce variables as execution will. */
  apiSdl: string;
  ledger: CreditLedger;
  verify: (key: string) => Promise<AuthenticatedPartner | null>;
}

const CALLER = 'cipgate::caller';
const HOLD = 'cipgate::hold';
const CHARGES = 'cipgate::charges';
const SETTLED = 'cipgate::settled';

const first = (headers: Record<string, string[]> | undefined, name: string): string | undefined => {
  const entry = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return entry?.[1]?.[0]?.trim() || undefined;
};

const errorBody = (message: string, code: string, extra: Record<string, unknown> = {}) => ({
  errors: [{ message, extensions: { ...extra, code } }],
});

const sameSecret = (presented: unknown, secret: string): boolean => {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * `POST /router/coprocessor`: cipgate's rules for Apollo Router users. RouterRequest checks `x-api-key`
 * and counts the request on cipgate's rate limits; SupergraphRequest prices the operation from the
 * supergraph's `@credits` and holds it on the ledger (401 without a key, 400 INSUFFICIENT_CREDITS);
 * SubgraphRequest adds the signed gateway token the subgraphs require; SupergraphResponse works out what
 * answered; RouterResponse, the last step before the client gets the answer, settles the hold once. Only
 * the Router may call it (the shared secret): whoever can post stages could otherwise mint gateway tokens.
 */
export const coprocessorPlugin = fp(async (app: FastifyInstance, options: CoprocessorOptions) => {
  const { ledger, prices } = options;
  const apiSchema = buildSchema(options.apiSdl);
  /** Who pays for a Router request; its charge is settled when the Router reports the answer (RouterResponse). */
  const payerOf = (partner: AuthenticatedPartner | null, payload: CoprocessorPayload): Payer => ({
    partner,
    requestId: payload.id,
    log: app.log,
  });

  const routerRequest = async (payload: CoprocessorPayload): Promise<CoprocessorPayload> => {
    const entries = payload.context?.entries ?? {};
    // The client's address as the Router saw it (it forwards it when told to), else the Router's own.
    const ip = first(payload.headers, 'x-forwarded-for')?.split(',')[0]?.trim() || 'router';
    const key = first(payload.headers, 'x-api-key');
    if (!key) {
      await app.rateLimits.address({ ip }, 'graphql');
      return { ...payload, context: { entries: { ...entries, [CALLER]: null } } };
    }
    await app.rateLimits.refuseGuessing({ ip }, 'graphql');
    const partner = await options.verify(key);
    if (!partner) {
      await app.rateLimits.failedKey({ ip }, 'graphql');
      throw new AppError(ErrorCode.UNAUTHENTICATED, 'Invalid API key');
    }
    await app.rateLimits.partner(partner.id, 'graphql');
    return { ...payload, context: { entries: { ...entries, [CALLER]: partner } } };
  };

  const supergraphRequest = async (payload: CoprocessorPayload): Promise<CoprocessorPayload> => {
    const entries = payload.context?.entries ?? {};
    const request = (payload.body ?? {}) as { query?: unknown; operationName?: unknown; variables?: unknown };
    let document: DocumentNode;
    try {
      if (typeof request.query !== 'string') return payload;
      document = parse(request.query);
    } catch {
      // The Router refuses it itself, before anything runs: nothing to hold.
      return payload;
    }
    const fields = priceOperation(
      apiSchema,
      document,
      typeof request.operationName === 'string' ? request.operationName : undefined,
      request.variables as Record<string, unknown> | undefined,
      prices,
    );
    if (!fields || priceOf(fields) === 0) return payload;
    const partner = (entries[CALLER] as AuthenticatedPartner | null | undefined) ?? null;
    // The Router may send the response stage to another process: a hold in this process's lease would not
    // be there to settle, so coprocessor holds are rows of their own.
    const charge = await OperationCharge.open(ledger, payerOf(partner, payload), fields, { lease: false });
    return { ...payload, context: { entries: { ...entries, [HOLD]: charge.held } } };
  };

  const subgraphRequest = (payload: CoprocessorPayload): CoprocessorPayload => {
    const partner = payload.context?.entries?.[CALLER] as AuthenticatedPartner | null | undefined;
    const token = signGatewayToken(options.subgraphSecret, {
      partnerId: partner?.id ?? null,
      keyId: partner?.keyId ?? null,
      requestId: payload.id,
    });
    // The key stays with the Router: the subgraph learns the partner from the token.
    const headers = Object.fromEntries(
      Object.entries(payload.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'x-api-key'),
    );
    return { ...payload, headers: { ...headers, [GATEWAY_TOKEN_HEADER]: [token], 'x-request-id': [payload.id] } };
  };

  const supergraphResponse = (payload: CoprocessorPayload): CoprocessorPayload => {
    const entries = payload.context?.entries ?? {};
    const hold = entries[HOLD] as HeldCharge | undefined;
    if (!hold) return payload;
    const body = (payload.body ?? {}) as ChargedResult;
    return { ...payload, context: { entries: { ...entries, [CHARGES]: chargesFor(hold.fields, body) } } };
  };

  const routerResponse = async (payload: CoprocessorPayload): Promise<CoprocessorPayload> => {
    const entries = payload.context?.entries ?? {};
    const hold = entries[HOLD] as HeldCharge | undefined;
    if (!hold || entries[SETTLED]) return payload;
    let charges = entries[CHARGES] as Charge[] | undefined;
    if (!charges) {
      // SupergraphResponse not configured: read the answer the client is about to get.
      try {
        charges = chargesFor(hold.fields, JSON.parse(String(payload.body ?? 'null')) ?? {});
      } catch {
        charges = [];
      }
    }
    const answered = (payload.statusCode ?? 200) === 200;
    const partner = (entries[CALLER] as AuthenticatedPartner | null | undefined) ?? null;
    await OperationCharge.resume(ledger, payerOf(partner, payload), hold).settle(charges, answered);
    return { ...payload, context: { entries: { ...entries, [SETTLED]: true } } };
  };

  const stages: Record<string, (p: CoprocessorPayload) => CoprocessorPayload | Promise<CoprocessorPayload>> = {
    RouterRequest: routerRequest,
    SupergraphRequest: supergraphRequest,
    SubgraphRequest: subgraphRequest,
    SupergraphResponse: supergraphResponse,
    RouterResponse: routerResponse,
  };

  app.post<{ Querystring: { secret?: string }; Body: CoprocessorPayload }>(
    '/router/coprocessor',
    // Router-to-cipgate plumbing, not part of the partner API description.
    { schema: { hide: true } },
    async (request, reply) => {
      if (!sameSecret(request.query.secret, options.secret)) {
        return reply.code(401).send({ statusCode: 401, message: 'Unknown coprocessor caller', error: 'Unauthorized' });
      }
      const payload = request.body;
      if (payload?.version !== 1 || typeof payload.stage !== 'string' || typeof payload.id !== 'string') {
        return reply
          .code(400)
          .send({ statusCode: 400, message: 'Not a coprocessor request (version 1)', error: 'Bad Request' });
      }
      const stage = stages[payload.stage];
      if (!stage) return { ...payload, control: 'continue' };
      try {
        return { ...(await stage(payload)), control: 'continue' };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // A refusal ends the client's request with cipgate's status and GraphQL error body.
        const status = httpStatusOf[err.code] ?? 500;
        const body = errorBody(err.message, err.code, err.details);
        const routerStage = payload.stage.startsWith('Router');
        const headers: Record<string, string[]> = { 'content-type': ['application/json'] };
        for (const [name, value] of Object.entries(err.headers)) headers[name] = [value];
        return {
          ...payload,
          control: { break: status },
          headers,
          body: routerStage ? JSON.stringify(body) : body,
        };
      }
    },
  );
});
