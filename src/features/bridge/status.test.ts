/**
 * Transfer status against a real EVM node (anvil, reporting chain id 1 so that quotes for Ethereum
 * can be sent to it as they are) and a LI.FI stand-in: route linking, on-chain checks, terminal
 * caching and the status history.
 */
import { readFileSync } from 'node:fs';
import { type Address, createPublicClient, createWalletClient, type Hash, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, startAnvil } from '../../../test/support/anvil.js';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { type Standin, startStandin } from '../../../test/support/http-standin.js';
import { NATIVE_EVM } from '../../platform/chains/registry.js';
import type { TransactionData } from './providers/types.js';

const lifiFixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../test/fixtures/lifi/${name}`, import.meta.url), 'utf8'));

/** Deploys a contract whose runtime is `PUSH1 0 DUP1 REVERT`: every call to it reverts. */
const REVERTER_INIT = '0x6004600c60003960046000f3600080fd';
const UNKNOWN = `0x${'5a'.repeat(32)}`;

interface RouteBody {
  id: string;
  estimatedTimeSeconds: number;
  transactionData: TransactionData;
}

describe('bridge status with an RPC for the source chain', () => {
  let anvil: Anvil;
  let lifi: Standin;
  let app: TestApp;
  /** Live: served by the LI.FI stand-in. */
  let apiKey: string;
  /** Sandbox: served by the sandbox only. */
  let sandboxKey: string;
  let sender: Address;
  let wallet: ReturnType<typeof createWalletClient>;
  let reader: ReturnType<typeof createPublicClient>;

  beforeAll(async () => {
    [anvil, lifi] = await Promise.all([startAnvil({ chainId: 1 }), startStandin()]);
    lifi.reply('/v1/status', { status: 404, json: lifiFixture('status-not-found.json') });
    app = await startTestApp({
      EVM_RPC_URLS: `eip155:1=${anvil.rpcUrl}`,
      LIFI_API_URL: `${lifi.url}/v1`,
      PROVIDER_TIMEOUT_MS: '2000',
    });
    ({ apiKey } = await app.partner(100));
    ({ apiKey: sandboxKey } = await app.partner(100, 'Sandbox Partner', { sandbox: true }));
    wallet = createWalletClient({ transport: http(anvil.rpcUrl) });
    reader = createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 50 });
    [sender] = (await wallet.getAddresses()) as [Address];
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all([anvil?.stop(), lifi?.close()]);
  });

  const get = (url: string, key = apiKey) => app.http.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
  const status = (txHash: string, extra = '', key = apiKey) =>
    get(`/partners/bridge/status?txHash=${txHash}${extra}`, key);
  const balance = async (key = apiKey) => (await get('/partners/stats', key)).json().creditBalance as number;

  async function sandboxQuote(): Promise<RouteBody> {
    const q = new URLSearchParams({
      fromChain: 'eip155:1',
      toChain: 'eip155:8453',
      fromToken: NATIVE_EVM,
      toToken: NATIVE_EVM,
      fromAmount: '250000000000000000',
      fromAddress: sender,
    });
    const res = await get(`/partners/bridge/quote?${q}`, sandboxKey);
    expect(res.statusCode, res.body).toBe(200);
    const { routes } = res.json();
    expect(routes.map((r: { bridgeProvider: string }) => r.bridgeProvider)).toEqual(['sandbox']);
    return routes[0] as RouteBody;
  }

  /** Signs and sends the quote's transaction data exactly as a wallet would. */
  async function send(tx: RouteBody['transactionData']): Promise<Hash> {
    const hash = await wallet.sendTransaction({
      account: sender,
      chain: null,
      to: tx.to as Address,
      data: tx.data as `0x${string}`,
      value: BigInt(tx.value),
      gas: BigInt(tx.gasLimit),
      gasPrice: BigInt(tx.gasPrice),
    });
    await reader.waitForTransactionReceipt({ hash });
    return hash;
  }

  it('a signed and mined sandbox transaction costs the sender its gas and not one wei more', async () => {
    const route = await sandboxQuote();
    expect(route.transactionData).toMatchObject({ to: sender, value: '0' });
    const before = await reader.getBalance({ address: sender });
    const hash = await send(route.transactionData);
    const receipt = await reader.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const after = await reader.getBalance({ address: sender });
    expect(after).toBe(before - receipt.gasUsed * receipt.effectiveGasPrice);
    // Nobody else received anything: the only account touched is the sender's own.
    expect(receipt.to?.toLowerCase()).toBe(sender.toLowerCase());
    expect(receipt.logs).toEqual([]);
  });

  it('links a mined quoted transaction to its route by the chain, and reports it PENDING with on-chain figures', async () => {
    const route = await sandboxQuote();
    const hash = await send(route.transactionData);
    const receipt = await reader.getTransactionReceipt({ hash });
    const block = await reader.getBlock({ blockNumber: receipt.blockNumber });
    const before = await balance(sandboxKey);

    const res = await status(hash, '', sandboxKey);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'PENDING',
      bridge: 'sandbox',
      fromTx: {
        txHash: hash,
        txLink: `https://etherscan.io/tx/${hash}`,
        chainId: 1,
        gasUsed: receipt.gasUsed.toString(),
        gasPrice: receipt.effectiveGasPrice.toString(),
        timestamp: Number(block.timestamp),
      },
      toTx: { txHash: '' },
    });
    expect(body.progress).toBeGreaterThanOrEqual(10);
    expect(body.progress).toBeLessThan(100);
    expect(body.message).toMatch(/progress/i);
    expect(await balance(sandboxKey)).toBe(before - 1);
    const [row] = await app.services.db.query<{ tx_hash: string; linked_by: string }>(
      'select tx_hash, linked_by from bridge_route where id = ?',
      [route.id],
    );
    expect(row).toEqual({ tx_hash: hash, linked_by: 'chain' });
    // LI.FI was not asked: the route says who to ask.
    expect(lifi.count('/v1/status')).toBe(0);

    // Once the sandbox's transfer time has passed, DONE, final and cached: later calls ask nobody.
    await app.services.db.run('update bridge_route set tracking = ? where id = ?', [
      JSON.stringify({
        ...JSON.parse(
          (
            await app.services.db.query<{ tracking: string }>('select tracking from bridge_route where id = ?', [
              route.id,
            ])
          )[0]?.tracking ?? '{}',
        ),
        quotedAt: new Date(Date.now() - 3600_000).toISOString(),
      }),
      route.id,
    ]);
    const done = (await status(hash, '', sandboxKey)).json();
    expect(done).toMatchObject({ status: 'DONE', bridge: 'sandbox', progress: 100 });
    expect(done.toTx.chainId).toBe(8453);
    expect(done.toTx.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    await app.services.db.run("update bridge_route set tracking = '{}' where id = ?", [route.id]);
    expect((await status(hash, '', sandboxKey)).json()).toEqual(done);

    const history = await app.services.db.query<{ status: string; provider: string }>(
      'select status, provider from bridge_status_history where tx_hash = ? order by id',
      [hash],
    );
    expect(history).toEqual([
      { status: 'PENDING', provider: 'sandbox' },
      { status: 'DONE', provider: 'sandbox' },
    ]);
    // A live partner asking about the same hash is answered by its own upstreams, never the sandbox.
    const live = (await status(hash)).json();
    expect(live).toMatchObject({ status: 'NOT_FOUND', bridge: 'lifi' });
  });

  it('a reverted source transaction is FAILED, final, with progress 0', async () => {
    const deploy = await wallet.sendTransaction({ account: sender, chain: null, data: REVERTER_INIT });
    const { contractAddress } = await reader.waitForTransactionReceipt({ hash: deploy });
    const hash = await wallet.sendTransaction({
      account: sender,
      chain: null,
      to: contractAddress as Address,
      gas: 50_000n,
    });
    const receipt = await reader.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('reverted');

    const body = (await status(hash)).json();
    expect(body).toMatchObject({ status: 'FAILED', progress: 0, fromTx: { txHash: hash, chainId: 1 } });
    expect(body.message).toMatch(/reverted on Ethereum/);
    const [row] = await app.services.db.query<{ terminal: unknown }>(
      'select terminal from bridge_transfer where tx_hash = ?',
      [hash],
    );
    expect([true, 1]).toContain(row?.terminal);
  });

  it('a hash the chain does not know is NOT_FOUND, with progress 0', async () => {
    const body = (await status(UNKNOWN)).json();
    expect(body).toMatchObject({ status: 'NOT_FOUND', progress: 0, fromTx: { txHash: UNKNOWN } });
    expect(body.message).toMatch(/not found/i);
    // Linked to a quoted route whose chain does not know the hash: NOT_FOUND from the chain itself.
    const route = await sandboxQuote();
    const other = `0x${'6b'.repeat(32)}`;
    // Only the sandbox partner that was quoted the route can claim it.
    expect((await status(other, `&routeId=${route.id}`)).statusCode).toBe(404);
    const linked = (await status(other, `&routeId=${route.id}`, sandboxKey)).json();
    expect(linked).toMatchObject({
      status: 'NOT_FOUND',
      bridge: 'sandbox',
      fromTx: { txHash: other, chainId: 1, txLink: `https://etherscan.io/tx/${other}` },
    });
    expect(linked.message).toMatch(/not found on chain/);
  });

  it('a mined transaction without a route is asked of every provider; a DONE answer is final and cached', async () => {
    const hash = await wallet.sendTransaction({ account: sender, chain: null, to: sender, value: 1n });
    await reader.waitForTransactionReceipt({ hash });
    lifi.reply('/v1/status', { json: lifiFixture('status-done.json') });
    lifi.resetCounts();
    const first = (await status(hash)).json();
    expect(first).toMatchObject({
      status: 'DONE',
      // The bridge that moved the funds (LI.FI's `tool`), and LI.FI as the aggregator that reported it.
      bridge: 'across',
      aggregator: 'lifi',
      substatus: 'COMPLETED',
      progress: 100,
      fromTx: { txHash: hash, chainId: 1 },
    });
    expect(first.toTx).toMatchObject({
      chainId: 8453,
      txLink: expect.stringMatching(/^https:\/\/basescan\.org\/tx\//),
    });
    expect(lifi.requests('/v1/status')[0]?.query).toEqual({ txHash: hash });

    lifi.reply('/v1/status', { json: lifiFixture('status-failed.json') });
    const before = await balance();
    expect((await status(hash)).json()).toEqual(first);
    expect((await status(hash, '&bridge=lifi')).json()).toEqual(first);
    expect(lifi.count('/v1/status')).toBe(1);
    expect(await balance()).toBe(before - 2);
  });

  it('a PENDING provider answer estimates progress below 100 and says what is happening', async () => {
    const hash = await wallet.sendTransaction({ account: sender, chain: null, to: sender, value: 2n });
    await reader.waitForTransactionReceipt({ hash });
    lifi.reply('/v1/status', { json: lifiFixture('status-pending.json') });
    const body = (await status(hash, '&bridge=lifi')).json();
    expect(body).toMatchObject({ status: 'PENDING', bridge: 'across', aggregator: 'lifi' });
    expect(body.substatus).toEqual(expect.any(String));
    expect(body.progress).toBeGreaterThan(0);
    expect(body.progress).toBeLessThan(100);
    expect(body.message.length).toBeGreaterThan(10);
  });

  it('the status upstream failing is a free 503', async () => {
    lifi.reply('/v1/status', { status: 500, json: { message: 'boom' } });
    const before = await balance();
    const res = await status(`0x${'7c'.repeat(32)}`, '&bridge=lifi');
    expect(res.statusCode).toBe(503);
    expect(await balance()).toBe(before);
  });
});

describe('bridge status without an RPC: the partner links its route', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.stop());

  it('routeId links the hash to the route for that partner only', async () => {
    const owner = await app.partner(20, 'Sandbox Owner', { sandbox: true });
    const other = await app.partner(20, 'Sandbox Other', { sandbox: true });
    const get = (url: string, key: string) => app.http.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
    const q = new URLSearchParams({
      fromChain: 'eip155:1',
      toChain: 'eip155:10',
      fromToken: NATIVE_EVM,
      toToken: NATIVE_EVM,
      fromAmount: '100000000000000000',
      fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    });
    const [route] = (await get(`/partners/bridge/quote?${q}`, owner.apiKey)).json().routes;
    const hash = `0x${'9d'.repeat(32)}`;

    // Without a link nobody can tell whose transfer this is.
    expect((await get(`/partners/bridge/status?txHash=${hash}`, owner.apiKey)).json().status).toBe('NOT_FOUND');
    // Another partner cannot claim the owner's route.
    expect((await get(`/partners/bridge/status?txHash=${hash}&routeId=${route.id}`, other.apiKey)).statusCode).toBe(
      404,
    );

    const linked = (await get(`/partners/bridge/status?txHash=${hash}&routeId=${route.id}`, owner.apiKey)).json();
    expect(linked).toMatchObject({ status: 'PENDING', bridge: 'sandbox', fromTx: { chainId: 1 } });
    expect((await get(`/partners/bridge/status?txHash=${hash}`, owner.apiKey)).json().status).toBe('PENDING');
    expect((await get(`/partners/bridge/status?txHash=${hash}`, other.apiKey)).json().status).toBe('NOT_FOUND');
    // A claim can be corrected, but a route stays linked to one transaction: the newer claim wins.
    const second = `0x${'8e'.repeat(32)}`;
    const relink = await get(`/partners/bridge/status?txHash=${second}&routeId=${route.id}`, owner.apiKey);
    expect(relink.json()).toMatchObject({ status: 'PENDING', fromTx: { txHash: second } });
    expect((await get(`/partners/bridge/status?txHash=${hash}`, owner.apiKey)).json().status).toBe('NOT_FOUND');
  });

  it('concurrent calls for a new transaction all answer and record one history entry', async () => {
    const { apiKey } = await app.partner(20, 'Sandbox Partner', { sandbox: true });
    const hash = `0x${'1f'.repeat(32)}`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        app.http.inject({
          method: 'GET',
          url: `/partners/bridge/status?txHash=${hash}`,
          headers: { 'x-api-key': apiKey },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const history = await app.services.db.query('select status from bridge_status_history where tx_hash = ?', [hash]);
    expect(history).toEqual([{ status: 'NOT_FOUND' }]);
  });
});
