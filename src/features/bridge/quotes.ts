/**
 * Quote aggregation: every enabled provider is asked at once, all under the request's one deadline,
 * and the routes that pass the consistency checks and the bridge lists are merged best-first in the
 * order asked, at most `maxRoutes` of them, each with what an ERC-20 source needs approved.
 */
import type { FastifyBaseLogger as Logger } from 'fastify';
import * as AbiFunction from 'ox/AbiFunction';
import * as Hex from 'ox/Hex';
import { badInput, notFound, upstreamUnavailable } from '../../platform/errors.js';
import { isUpstreamClientError } from '../../platform/upstream/index.js';
import { ERC20_APPROVE, withApproval } from './approval.js';
import { beforeDeadline, isDeadlineError } from './deadline.js';
import { isEnabled } from './provider-registry.js';
import type { BridgeProvider, ProviderRoute, QuoteRequest } from './providers/types.js';
import { familyOf, normalizeAddress } from './validation.js';

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
  if (normalizeAddress(fromFamily, route.fromToken) !== normalizeAddress(fromFamily, request.fromToken)) {
    return 'fromToken differs from the request';
  }
  if (normalizeAddress(toFamily, route.toToken) !== normalizeAddress(toFamily, request.toToken)) {
    return 'toToken differs from the request';
  }
  const integer = /^\d+$/;
  if (![route.fromAmount, route.toAmount, route.toAmountMin].every((v) => integer.test(v)))
    return 'amounts are not integers';
  if (BigInt(route.fromAmount) !== request.fromAmount) return 'fromAmount differs from the request';
  if (BigInt(route.toAmount) <= 0n) return 'toAmount is not positive';
  if (BigInt(route.toAmountMin) > BigInt(route.toAmount)) return 'toAmountMin exceeds toAmount';
  const tx = route.transactionData;
  if (normalizeAddress(fromFamily, tx.from) !== normalizeAddress(fromFamily, request.fromAddress)) {
    return 'transaction is not sent from fromAddress';
  }
  if (fromFamily === 'evm') {
    const chainId = Number(request.fromChain.slice('eip155:'.length));
    if (tx.chainId !== chainId) return `transaction chainId ${tx.chainId} is not the source chain ${chainId}`;
    if (!/^0x[0-9a-fA-F]{40}$/.test(tx.to) || !/^0x([0-9a-fA-F]{2})*$/.test(tx.data)) return 'transaction is malformed';
    if (route.approvalTransaction) return approvalProblem(route, request, chainId);
  }
  return undefined;
}

/** An upstream-built approval must approve the source token, for at least the amount, from the wallet. */
function approvalProblem(route: ProviderRoute, request: QuoteRequest, chainId: number): string | undefined {
  const approval = route.approvalTransaction;
  if (!approval) return undefined;
  if (approval.chainId !== chainId || approval.to.toLowerCase() !== request.fromToken.toLowerCase()) {
    return 'approval is not for the source token on the source chain';
  }
  if (approval.from.toLowerCase() !== request.fromAddress.toLowerCase()) return 'approval is not sent from fromAddress';
  try {
    const data = approval.data.toLowerCase() as Hex.Hex;
    if (Hex.size(data) < 4 || Hex.slice(data, 0, 4) !== AbiFunction.getSelector(ERC20_APPROVE)) {
      return 'approval is not an approve call';
    }
    const [spender, amount] = AbiFunction.decodeData(ERC20_APPROVE, data);
    if (amount < request.fromAmount) return 'approval is for less than fromAmount';
    if (route.approvalAddress && spender.toLowerCase() !== route.approvalAddress.toLowerCase()) {
      return 'approval spender differs from approvalAddress';
    }
  } catch {
    return 'approval calldata does not decode';
  }
  return undefined;
}

/** Whether the route's bridge passes the request's allow and deny lists. */
export function bridgeAllowed(route: ProviderRoute, request: QuoteRequest): boolean {
  const bridge = route.bridgeProvider.toLowerCase();
  const named = (list: string[]) => list.some((b) => b.toLowerCase() === bridge);
  if (request.allowBridges.length > 0 && !named(request.allowBridges)) return false;
  return !named(request.denyBridges);
}

/**
 * What the wallet ends up with in USD after the source gas it pays (fees are already out of
 * `toAmount`); undefined when a route is not priced, and then base units decide.
 */
function netUsd(route: ProviderRoute): number | undefined {
  const received = Number(route.toAmountUSD);
  const gas = Number(route.gasCostUSD);
  return received > 0 && Number.isFinite(gas) ? received - gas : undefined;
}

function cheaper(a: ProviderRoute, b: ProviderRoute): number {
  const [na, nb] = [netUsd(a), netUsd(b)];
  if (na !== undefined && nb !== undefined && na !== nb) return nb - na;
  const byAmount = BigInt(b.toAmount) - BigInt(a.toAmount);
  if (byAmount !== 0n) return byAmount > 0n ? 1 : -1;
  const byFee = Number(a.feeCostUSD) - Number(b.feeCostUSD);
  return byFee !== 0 && Number.isFinite(byFee) ? byFee : 0;
}

/**
 * Best first for the order asked: CHEAPEST ranks by the amount received net of costs, FASTEST by
 * estimated time; the other criterion breaks ties, then bridge and aggregator names keep ties stable.
 */
export function compareRoutes(a: ProviderRoute, b: ProviderRoute, order: QuoteRequest['order'] = 'CHEAPEST'): number {
  const byTime = a.estimatedTimeSeconds - b.estimatedTimeSeconds;
  const first = order === 'FASTEST' ? byTime : cheaper(a, b);
  if (first !== 0) return first;
  const second = order === 'FASTEST' ? cheaper(a, b) : byTime;
  if (second !== 0) return second;
  return a.bridgeProvider.localeCompare(b.bridgeProvider) || a.aggregator.localeCompare(b.aggregator);
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
  let filtered = 0;
  for (const outcome of outcomes) {
    if (outcome.kind !== 'routes') continue;
    for (const route of outcome.routes) {
      const problem = routeProblem(route, request);
      if (problem) log.warn({ provider: outcome.provider, problem }, 'bridge route dropped');
      // Upstreams are asked to honour the lists too; this catches one that does not (or cannot).
      else if (!bridgeAllowed(route, request)) filtered++;
      else routes.push(withApproval(route));
    }
  }
  if (routes.length > 0) return routes.sort((a, b) => compareRoutes(a, b, request.order)).slice(0, request.maxRoutes);

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
  const lists = filtered > 0 ? ` (${filtered} route(s) excluded by allowBridges/denyBridges)` : '';
  throw notFound(`No route found for ${what} with fromAmount ${request.fromAmount}${lists}`);
}
