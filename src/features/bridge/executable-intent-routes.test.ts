/**
 * Relay and deBridge routes executed on anvil: each stand-in answers in its documented shape
 * (test/fixtures/relay, test/fixtures/debridge) with a deposit into the test bridge contract, and the
 * route's approval then transaction, sent as the quote hands them out, succeed.
 */
import { readFileSync } from 'node:fs';
import { type Address, encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, startAnvil } from '../../../test/support/anvil.js';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { type Standin, startStandin } from '../../../test/support/http-standin.js';
import { deployTestBridge, type TestBridgeChain } from './contracts.test-helper.js';
import { USDC_BASE } from './providers/provider.test-helper.js';
import type { TransactionData as Tx } from './providers/types.js';

const fixture = (dir: string, name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../../test/fixtures/${dir}/${name}`, import.meta.url), 'utf8'));

interface RouteBody {
  aggregator: string;
  approvalAddress: string | null;
  approvalTransaction: Tx | null;
  transactionData: Tx;
}

const AMOUNT = 250_000_000n;
const FIX_FEE = 1_000_000_000_000_000n;

describe('Relay and deBridge ERC-20 routes executed on anvil', () => {
  let anvil: Anvil;
  let relay: Standin;
  let debridge: Standin;
  let app: TestApp;
  let apiKey: string;
  let chain: TestBridgeChain;
  let sender: Address;
  let token: Address;
  let bridge: Address;

  beforeAll(async () => {
    [anvil, relay, debridge] = await Promise.all([startAnvil({ chainId: 1 }), startStandin(), startStandin()]);
    chain = await deployTestBridge(anvil.rpcUrl, 10n * AMOUNT);
    ({ sender, token, bridge } = chain);
    const bridgeAbi = chain.artifacts.TestBridge.abi;
    const deposit = encodeFunctionData({ abi: bridgeAbi, functionName: 'deposit', args: [token, AMOUNT, 8453n] });

    // Relay's documented ERC-20 quote (approve step, then the deposit step), aimed at the test bridge.
    const quote = structuredClone(fixture('relay', 'quote-usdc-arbitrum-base.json')) as {
      steps: { id: string; items: { data: Record<string, unknown> }[] }[];
      details: { currencyIn: { amount: string } };
    };
    for (const step of quote.steps) {
      const data = step.items[0]?.data as Record<string, unknown>;
      Object.assign(
        data,
        step.id === 'approve'
          ? {
              from: sender,
              to: token,
              chainId: 1,
              data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [bridge, AMOUNT] }),
            }
          : { from: sender, to: bridge, chainId: 1, data: deposit, gas: '200000' },
      );
    }
    quote.details.currencyIn.amount = AMOUNT.toString();
    relay.reply('/chains', { json: fixture('relay', 'chains.json') });
    relay.reply('/quote/v2', { json: quote });

    // deBridge's documented create-tx answer: the order transaction to the (test) DlnSource, with its fix fee.
    const order = structuredClone(fixture('debridge', 'create-tx-usdc-arbitrum-base.json')) as {
      estimation: { srcChainTokenIn: { amount: string } };
      tx: Record<string, string>;
    };
    order.estimation.srcChainTokenIn.amount = AMOUNT.toString();
    order.tx = { to: bridge, data: deposit, value: FIX_FEE.toString() };
    debridge.reply('/v1.0/supported-chains-info', { json: fixture('debridge', 'supported-chains-info.json') });
    debridge.reply('/v1.0/dln/order/create-tx', { json: order });

    app = await startTestApp({
      RELAY_API_URL: relay.url,
      DEBRIDGE_API_URL: `${debridge.url}/v1.0`,
      PROVIDER_TIMEOUT_MS: '2000',
    });
    ({ apiKey } = await app.partner(100));
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    await Promise.all([anvil?.stop(), relay?.close(), debridge?.close()]);
  });

  async function routes(): Promise<RouteBody[]> {
    const q = new URLSearchParams({
      fromChain: 'eip155:1',
      toChain: 'eip155:8453',
      fromToken: token,
      toToken: USDC_BASE,
      fromAmount: AMOUNT.toString(),
      fromAddress: sender,
    });
    const res = await app.http.inject({
      method: 'GET',
      url: `/partners/bridge/quote?${q}`,
      headers: { 'x-api-key': apiKey },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().routes as RouteBody[];
  }

  const held = () => chain.balanceOf(bridge);

  for (const aggregator of ['relay', 'debridge'] as const) {
    it(`${aggregator}: approve then the route transaction succeeds, and the bridge pulled the tokens`, async () => {
      const route = (await routes()).find((r) => r.aggregator === aggregator);
      if (!route?.approvalTransaction) throw new Error(`${aggregator} route has no approval transaction`);
      expect(route.approvalAddress?.toLowerCase()).toBe(bridge.toLowerCase());
      const before = await held();
      const r = chain.reader;
      // Without the approval the route's own transaction reverts: the approval is what makes it executable.
      await expect(
        r.call({
          account: sender,
          to: route.transactionData.to as Address,
          data: route.transactionData.data as Hex,
          value: BigInt(route.transactionData.value),
        }),
      ).rejects.toThrow(/allowance/);
      expect((await chain.send(route.approvalTransaction)).status).toBe('success');
      expect((await chain.send(route.transactionData)).status).toBe('success');
      expect((await held()) - before).toBe(AMOUNT);
      if (aggregator === 'debridge') {
        expect(BigInt(route.transactionData.value)).toBe(FIX_FEE);
        expect(await r.getBalance({ address: bridge })).toBe(FIX_FEE);
      }
    });
  }
});
