/**
 * Quote aggregation: every enabled provider is asked at once, all under the request's one deadline,
 * and the routes that pass the consistency checks are merged best-first by `toAmount`.
 */
import type { FastifyBaseLogger as Logger } from 'fastify';
import { badInput, notFound, upstreamUnavailable } from '../../platform/errors.js';
import { isUpstreamClientError } from '../../platform/upstream/index.js';
import { beforeDeadline, isDeadlineError } from './deadline.js';
import { isEnabled } from './provider-registry.js';
import type { BridgeProvider, ProviderRoute, QuoteRequest } from './providers/types.js';
import { familyOf, normaliseAddress } from './validation.js';

export type ProviderOutcome =
  | { provider: string; kind: 'routes'; routes: ProviderRoute[] }
  /** The upstream refused the request (4xx): our input passed validation, so it is the upstream's rule. */
  | { provider: string; kind: 'rejected'; message: string }
  | { provider: string; kind: 'failed'; message: string };

/** Asks one provider, giving up at the request's deadline even if the provider ignores the signal. */
async function ask(
  provider: BridgeProvider,
  request: QuoteRequest,
  signal: AbortSignal,
  log: Logger,
): Promise<ProviderOutcome> {
  try {
    const routes = await beforeDeadline(provider.quote(request, signal), signal);
    return { provider: provider.name, kind: 'routes', routes };
  } catch (err) {
    if (isUpstreamClientError(err)) {
      log.warn({ err, provider: provider.name }, 'bridge upstream rejected the quote request');
      return { provider: provider.name, kind: 'rejected', message: err.upstreamMessage ?? `HTTP ${err.status}` };
    }
    log.warn({ err, provider: provider.name }, 'bridge quote failed');
    const message = isDeadlineError(err) ? 'no quote before the deadline' : 'unavailable';
    return { provider: provider.name, kind: 'failed', message };
  }
}

/**
 * Why a provider's route cannot be offered for this request, or undefined when it can. The caller
 * signs `transactionData` as is, so a route moving other tokens, another amount, from another
 * wallet or on another chain than asked is dropped rather than shown.
 */
export function routeProblem(route: ProviderRoute, request: QuoteRequest): string | undefined {
  const fromFamily = familyOf(request.fromChain);
  const toFamily = familyOf(request.toChain);
  if (!fromFamily || !toFamily) return 'unsupported chain family';
  if (route.fromChain !== request.fromChain || route.toChain !== request.toChain)
    return 'chains differ from the request';
  if (normaliseAddress(fromFamily, route.fromToken) !== normaliseAddress(fromFamily, request.fromToken)) {
    return 'fromToken differs from the request';
  }
  if (normaliseAddress(toFamily, route.toToken) !== normaliseAddress(toFamily, request.toToken)) {
    return 'toToken differs from the request';
  }
  const integer = /^\d+$/;
  if (![route.fromAmount, route.toAmount, route.toAmountMin].every((v) => integer.test(v)))
    return 'amounts are not integers';
  if (BigInt(route.fromAmount) !== request.fromAmount) return 'fromAmount differs from the request';
  if (BigInt(route.toAmount) <= 0n) return 'toAmount is not positive';
  if (BigInt(route.toAmountMin) > BigInt(route.toAmount)) return 'toAmountMin exceeds toAmount';
  const tx = route.transactionData;
  if (normaliseAddress(fromFamily, tx.from) !== normaliseAddress(fromFamily, request.fromAddress)) {
    return 'transaction is not sent from fromAddress';
  }
  if (fromFamily === 'evm') {
    const chainId = Number(request.fromChain.slice('eip155:'.length));
    if (tx.chainId !== chainId) return `transaction chainId ${tx.chainId} is not the source chain ${chainId}`;
    if (!/^0x[0-9a-fA-F]{40}$/.test(tx.to) || !/^0x([0-9a-fA-F]{2})*$/.test(tx.data)) return 'transaction is malformed';
  }
  return undefined;
}

/** Best first: more received, then cheaper in fees, then faster; provider name keeps ties stable. */
export function compareRoutes(a: ProviderRoute, b: ProviderRoute): number {
  const byAmount = BigInt(b.toAmount) - BigInt(a.toAmount);
  if (byAmount !== 0n) return byAmount > 0n ? 1 : -1;
  const byFee = Number(a.feeCostUSD) - Number(b.feeCostUSD);
  if (byFee !== 0 && Number.isFinite(byFee)) return byFee;
  if (a.estimatedTimeSeconds !== b.estimatedTimeSeconds) return a.estimatedTimeSeconds - b.estimatedTimeSeconds;
  return a.bridgeProvider.localeCompare(b.bridgeProvider);
}

/**
 * Routes of every enabled provider for the request, best first. Throws a free error when there is
 * nothing to offer: 404 when the providers that answered have no route, 400 when every one of them
 * refused the request, 503 when a provider that might have had a route could not be asked.
 */
export async function aggregateQuotes(
  providers: readonly BridgeProvider[],
  request: QuoteRequest,
  signal: AbortSignal,
  log: Logger,
): Promise<ProviderRoute[]> {
  const enabled = providers.filter(isEnabled);
  if (enabled.length === 0) throw upstreamUnavailable('No bridge provider is enabled');
  const outcomes = await Promise.all(enabled.map((p) => ask(p, request, signal, log)));
  const routes: ProviderRoute[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind !== 'routes') continue;
    for (const route of outcome.routes) {
      const problem = routeProblem(route, request);
      if (problem) log.warn({ provider: outcome.provider, problem }, 'bridge route dropped');
      else routes.push(route);
    }
  }
  if (routes.length > 0) return routes.sort(compareRoutes);

  const failed = outcomes.filter((o) => o.kind === 'failed');
  const rejected = outcomes.filter((o) => o.kind === 'rejected');
  const describe = (list: ProviderOutcome[]) =>
    list.map((o) => `${o.provider}: ${'message' in o ? o.message : 'no route'}`).join('; ');
  const what = `${request.fromToken} on ${request.fromChain} to ${request.toToken} on ${request.toChain}`;
  if (failed.length > 0) {
    // A provider we could not ask may well have had a route: "try again" is the honest answer.
    throw upstreamUnavailable(
      failed.length === enabled.length
        ? `Bridge providers are unavailable (${describe(failed)}); try again shortly`
        : `No route available right now for ${what}: ${describe(failed)}; the other providers have no route`,
    );
  }
  if (rejected.length === enabled.length) {
    throw badInput(`The bridge providers refused the request (${describe(rejected)})`);
  }
  throw notFound(`No route found for ${what} with fromAmount ${request.fromAmount}`);
}
