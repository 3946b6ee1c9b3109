import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PublicKey } from '@solana/web3.js';

/**
 * A local Solana JSON-RPC endpoint for tests: `getAccountInfo`, `getMultipleAccounts`,
 * `getTokenLargestAccounts` and `getLatestBlockhash` answered from an in-memory account map, in the wire format Solana documents
 * (https://solana.com/docs/rpc/http): `{context: {slot}, value}` envelopes, base64 account data, null
 * for a missing account. Failure switches make it answer HTTP 500, a JSON-RPC error, or nothing at all.
 */

export interface StandinAccount {
  /** Program that owns the account. */
  owner: PublicKey;
  data: Uint8Array;
  lamports?: number;
  executable?: boolean;
}

/** How the stand-in misbehaves: `http500` and `rpcError` answer at once, `hang` never answers. */
export type StandinFailure = 'http500' | 'rpcError' | 'hang';

export interface RpcCall {
  method: string;
  params: unknown[];
}

export interface SolanaRpcStandin {
  /** `http://127.0.0.1:<port>` */
  url: string;
  setAccount(address: PublicKey, account: StandinAccount): void;
  getAccount(address: PublicKey): StandinAccount | undefined;
  deleteAccount(address: PublicKey): void;
  /** Every JSON-RPC call received, in order, so tests can check batching. */
  readonly calls: RpcCall[];
  /** Makes every following request fail this way; null restores normal answers. */
  fail(mode: StandinFailure | null): void;
  close(): Promise<void>;
}

const TOKEN_PROGRAM_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
/**
 * Solana answers u64::MAX as the rent epoch of rent-exempt accounts (every account created today). A JS number
 * cannot hold it, so a placeholder is swapped for the exact digits after serialising.
 */
const RENT_EXEMPT_EPOCH = '__u64_max__';
const RENT_EXEMPT_EPOCH_JSON = [`"${RENT_EXEMPT_EPOCH}"`, '18446744073709551615'] as const;
const SLOT = 312_000_000;
/** What `getLatestBlockhash` answers (base58 of 32 bytes). */
export const STANDIN_BLOCKHASH = 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N';
/** `getMultipleAccounts` accepts at most 100 keys. */
const MAX_MULTIPLE_ACCOUNTS = 100;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startSolanaRpcStandin(): Promise<SolanaRpcStandin> {
  const accounts = new Map<string, StandinAccount>();
  const calls: RpcCall[] = [];
  let failure: StandinFailure | null = null;
  const hanging = new Set<ServerResponse>();

  const accountJson = (account: StandinAccount | undefined) =>
    account
      ? {
          data: [Buffer.from(account.data).toString('base64'), 'base64'],
          executable: account.executable ?? false,
          lamports: account.lamports ?? rentExemptLamports(account.data.length),
          owner: account.owner.toBase58(),
          rentEpoch: RENT_EXEMPT_EPOCH,
          space: account.data.length,
        }
      : null;

  const withContext = (value: unknown) => ({ context: { apiVersion: '2.1.21', slot: SLOT }, value });

  function handle(method: string, params: unknown[]): unknown {
    switch (method) {
      case 'getAccountInfo': {
        assertEncoding(params[1]);
        return withContext(accountJson(accounts.get(pubkeyParam(params[0]).toBase58())));
      }
      case 'getMultipleAccounts': {
        assertEncoding(params[1]);
        const keys = params[0];
        if (!Array.isArray(keys)) throw new RpcError(-32602, 'Invalid params: expected an array of pubkeys');
        if (keys.length > MAX_MULTIPLE_ACCOUNTS) {
          throw new RpcError(-32602, `Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
        }
        return withContext(keys.map((k) => accountJson(accounts.get(pubkeyParam(k).toBase58()))));
      }
      case 'getTokenLargestAccounts': {
        const mint = pubkeyParam(params[0]);
        const mintAccount = accounts.get(mint.toBase58());
        // What a real node answers for a mint that does not exist.
        if (!mintAccount?.owner.equals(TOKEN_PROGRAM_ID)) {
          throw new RpcError(-32602, 'Invalid param: could not find account');
        }
        const decimals = mintAccount.data[44] ?? 0;
        const holders = [...accounts.entries()]
          .filter(([, a]) => a.owner.equals(TOKEN_PROGRAM_ID) && a.data.length === 165)
          .filter(([, a]) => new PublicKey(a.data.subarray(0, 32)).equals(mint))
          .map(([address, a]) => ({ address, amount: Buffer.from(a.data).readBigUInt64LE(64) }))
          .sort((x, y) => (x.amount === y.amount ? 0 : x.amount > y.amount ? -1 : 1))
          .slice(0, 20);
        return withContext(
          holders.map(({ address, amount }) => {
            const ui = Number(amount) / 10 ** decimals;
            return { address, amount: amount.toString(), decimals, uiAmount: ui, uiAmountString: String(ui) };
          }),
        );
      }
      case 'getLatestBlockhash':
        // A fixed, valid blockhash: what transaction builders need to compile a message.
        return withContext({ blockhash: STANDIN_BLOCKHASH, lastValidBlockHeight: SLOT + 150 });
      default:
        throw new RpcError(-32601, 'Method not found');
    }
  }

  function answer(request: unknown): unknown {
    const { id = null, method, params = [] } = (request ?? {}) as { id?: unknown; method?: unknown; params?: unknown };
    if (typeof method !== 'string' || !Array.isArray(params)) {
      return { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id };
    }
    calls.push({ method, params });
    if (failure === 'rpcError') {
      return { jsonrpc: '2.0', error: { code: -32005, message: 'Node is behind by 1234 slots' }, id };
    }
    try {
      return { jsonrpc: '2.0', result: handle(method, params), id };
    } catch (error) {
      if (error instanceof RpcError) return { jsonrpc: '2.0', error: { code: error.code, message: error.message }, id };
      throw error;
    }
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (failure === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (failure === 'http500') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      send(res, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
      return;
    }
    send(res, Array.isArray(body) ? body.map(answer) : answer(body));
  }

  const server = createServer((req, res) => {
    onRequest(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    setAccount: (address, account) => accounts.set(address.toBase58(), account),
    getAccount: (address) => accounts.get(address.toBase58()),
    deleteAccount: (address) => accounts.delete(address.toBase58()),
    calls,
    fail(mode) {
      failure = mode;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

function send(res: ServerResponse, body: unknown) {
  const json = JSON.stringify(body).replaceAll(...RENT_EXEMPT_EPOCH_JSON);
  res.writeHead(200, { 'content-type': 'application/json' }).end(json);
}

function pubkeyParam(value: unknown): PublicKey {
  try {
    return new PublicKey(value as string);
  } catch {
    throw new RpcError(-32602, `Invalid param: Invalid pubkey ${String(value)}`);
  }
}

/**
 * Only base64 is served: it is what web3.js asks for. A node defaults to base58 when no encoding is given, so
 * answering base64 then would hide a client that forgot to ask.
 */
function assertEncoding(config: unknown) {
  const encoding = (config as { encoding?: unknown } | undefined)?.encoding;
  if (encoding !== 'base64') {
    throw new RpcError(-32602, `Invalid param: encoding ${String(encoding)} is not served by the stand-in`);
  }
}

/** Rent-exempt minimum for `size` bytes at mainnet's rent rate (3480 lamports/byte-year, 2 years, 128-byte overhead). */
function rentExemptLamports(size: number): number {
  return (size + 128) * 3480 * 2;
}
