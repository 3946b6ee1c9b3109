import { type Address, createPublicClient, createWalletClient, type Hash, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, startAnvil } from '../../../../../test/support/anvil.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import { checkSourceTransaction } from './index.js';

/** Raw JSON-RPC, for anvil's evm_* methods that a viem public client has no action for. */
async function rpc(node: Anvil, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(node.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * Init code that deploys the 4-byte runtime `PUSH1 0 DUP1 REVERT` (0x600080fd): CODECOPY the 4 bytes
 * found at offset 12 of the init code to memory 0, then RETURN them.
 */
const REVERTER_INIT = '0x6004600c60003960046000f3600080fd';
const ANVIL_CHAIN_ID = 31337;

let node: Anvil;
let sender: Address;
let recipient: Address;
let wallet: ReturnType<typeof createWalletClient>;
let reader: ReturnType<typeof createPublicClient>;

beforeAll(async () => {
  node = await startAnvil();
  wallet = createWalletClient({ transport: http(node.rpcUrl) });
  reader = createPublicClient({ transport: http(node.rpcUrl) });
  [sender, recipient] = (await wallet.getAddresses()) as [Address, Address];
});

afterAll(async () => {
  await node?.stop();
});

const check = (txHash: string, chainId = ANVIL_CHAIN_ID) =>
  checkSourceTransaction({ rpcUrl: node.rpcUrl, txHash, chainId });

describe('checkSourceTransaction against anvil', () => {
  it('reports a mined transfer as SUCCESS with gas, price and block time', async () => {
    const hash = await wallet.sendTransaction({
      account: sender,
      chain: null,
      to: recipient,
      value: parseEther('0.5'),
    });
    const receipt = await reader.waitForTransactionReceipt({ hash });
    const block = await reader.getBlock({ blockNumber: receipt.blockNumber });

    const result = await check(hash);
    expect(result.state).toBe('SUCCESS');
    expect(result.txInfo).toEqual({
      txHash: hash,
      txLink: '',
      chainId: ANVIL_CHAIN_ID,
      gasUsed: '21000',
      gasPrice: receipt.effectiveGasPrice.toString(),
      timestamp: Number(block.timestamp),
    });
    expect(BigInt(result.txInfo!.gasPrice)).toBeGreaterThan(0n);

    // The explorer link follows the chain the caller names; upper-case hex is the same hash.
    const onMainnet = await check(hash.toUpperCase().replace('0X', '0x'), 1);
    expect(onMainnet.txInfo?.txLink).toBe(`https://etherscan.io/tx/${hash}`);
  });

  it('reports a mined transaction whose call reverted as REVERTED', async () => {
    const deploy = await wallet.sendTransaction({ account: sender, chain: null, data: REVERTER_INIT });
    const { contractAddress } = await reader.waitForTransactionReceipt({ hash: deploy });
    expect(await reader.getCode({ address: contractAddress! })).toBe('0x600080fd');

    // A fixed gas limit skips estimation (which would refuse a reverting call), so it gets mined.
    const hash = await wallet.sendTransaction({ account: sender, chain: null, to: contractAddress!, gas: 50_000n });
    const receipt = await reader.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('reverted');

    const result = await check(hash);
    expect(result.state).toBe('REVERTED');
    expect(result.txInfo?.txHash).toBe(hash);
    expect(result.txInfo?.gasUsed).toBe(receipt.gasUsed.toString());
  });

  it('reports a hash the node never saw as NOT_FOUND, and a non-hash without asking', async () => {
    expect(await check(`0x${'12'.repeat(32)}`)).toEqual({ state: 'NOT_FOUND' });
    expect(await check('0x1234')).toEqual({ state: 'NOT_FOUND' });
  });

  it('reports a transaction waiting in the pool as PENDING, then SUCCESS once mined', async () => {
    await rpc(node, 'evm_setAutomine', [false]);
    try {
      const hash: Hash = await wallet.sendTransaction({
        account: sender,
        chain: null,
        to: recipient,
        value: 1n,
        gas: 21_000n,
      });
      expect(await check(hash)).toEqual({ state: 'PENDING' });
      await rpc(node, 'evm_mine');
      expect((await check(hash)).state).toBe('SUCCESS');
    } finally {
      await rpc(node, 'evm_setAutomine', [true]);
    }
  });

  it('throws UpstreamError when the RPC cannot be reached', async () => {
    const closed = node.rpcUrl.replace(/:\d+$/, ':1');
    await expect(
      checkSourceTransaction({ rpcUrl: closed, txHash: `0x${'12'.repeat(32)}`, chainId: 1 }),
    ).rejects.toThrow(UpstreamError);
  });

  it('rethrows the caller’s abort instead of blaming the upstream', async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(
      checkSourceTransaction({
        rpcUrl: node.rpcUrl,
        txHash: `0x${'12'.repeat(32)}`,
        chainId: 1,
        signal: controller.signal,
      }),
    ).rejects.toBe(reason);
  });
});
