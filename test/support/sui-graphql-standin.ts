/**
 * A loopback stand-in for Sui's GraphQL API, answering the SuiNS queries the way the service documents
 * them (docs.sui.io GraphQL reference: `Query.nameRecord(name)`, `Query.address(address)`,
 * `Address.defaultNameRecord`, type `NameRecord { domain, target: Address, contents: MoveValue, parent }`;
 * semantics from MystenLabs/sui crates/sui-indexer-alt-graphql/src/api/types/name_record.rs):
 *   POST / {query, variables}  →  {"data": {...}} or {"data": null, "errors": [{message}]}
 *   nameRecord(name: $name)                       a live record or null (expired, unknown, or a leaf
 *                                                 whose parent is gone or expired)
 *   address(address: $a) { defaultNameRecord }   the reverse record's name, while that name is live
 * `contents { json }` renders the on-chain `suins::name_record::NameRecord` (fields from the
 * sui-name-service crate: nft_id, expiration_timestamp_ms, target_address, data: VecMap<String,String>)
 * as `MoveValue.json` does: u64 as a decimal string, IDs and addresses as 0x strings, an empty `Option`
 * as null, a `VecMap` as `{"contents": [{"key", "value"}]}`. Only the root field the query asks for is
 * answered, and `contents` / `parent` only when the query selects them.
 *
 *   const sui = await startSuiGraphqlStandin();
 *   sui.setName('alice.sui', { target: '0x…', expirationMs: Date.now() + 86_400_000, data: { avatar: '…' } });
 *   sui.setDefault('0x…', 'alice.sui');
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SuiStandinName {
  /** Null when the name points nowhere. */
  target: string | null;
  /** 0 for a leaf subname, which lives as long as its parent. */
  expirationMs: number;
  /** The registration NFT's id; a leaf's must equal its parent's. Defaults to one derived from the name. */
  nftId?: string;
  data?: Record<string, string>;
}

export interface SuiGraphqlStandin {
  /** The GraphQL endpoint, e.g. `http://127.0.0.1:41234/graphql`. */
  readonly url: string;
  setName(name: string, record: SuiStandinName | null): void;
  setDefault(address: string, name: string | null): void;
  /** Serve expired records as if they were live (a server whose clock lags), for expiry checks downstream. */
  serveExpired(on: boolean): void;
  /** Request bodies received. */
  readonly requests: { query: string; variables: Record<string, unknown> }[];
  /** Answer every request with this HTTP status (null clears), or with a GraphQL error (a message). */
  failWith(failure: number | string | null): void;
  close(): Promise<void>;
}

const pad = (address: string): string => `0x${address.replace(/^0x/i, '').toLowerCase().padStart(64, '0')}`;
const nftOf = (name: string): string => pad(Buffer.from(name).toString('hex').slice(0, 64));

export async function startSuiGraphqlStandin(): Promise<SuiGraphqlStandin> {
  const names = new Map<string, SuiStandinName>();
  const defaults = new Map<string, string>();
  const requests: SuiGraphqlStandin['requests'] = [];
  let failure: number | string | null = null;
  let expiredServed = false;

  const parentOf = (name: string): string | null => {
    const labels = name.split('.');
    return labels.length > 2 ? labels.slice(1).join('.') : null;
  };
  // A leaf subname shares its parent's registration NFT unless the test says otherwise.
  const nftIdOf = (name: string, record: SuiStandinName): string =>
    record.nftId ?? nftOf(record.expirationMs === 0 ? (parentOf(name) ?? name) : name);
  const json = (name: string, record: SuiStandinName) => ({
    nft_id: nftIdOf(name, record),
    expiration_timestamp_ms: String(record.expirationMs),
    target_address: record.target === null ? null : pad(record.target),
    data: { contents: Object.entries(record.data ?? {}).map(([key, value]) => ({ key, value })) },
  });
  const expired = (record: SuiStandinName) => !expiredServed && record.expirationMs < Date.now();

  /** The record GraphQL answers for `name`, following name_record.rs's expiry rules; null when none is live. */
  const live = (name: string): SuiStandinName | null => {
    const record = names.get(name);
    if (!record) return null;
    if (record.expirationMs !== 0) return expired(record) ? null : record;
    // A leaf lives while its parent exists with the same NFT and is not expired.
    const parentName = parentOf(name);
    const parent = parentName ? names.get(parentName) : undefined;
    if (!parentName || !parent) return null;
    if (nftIdOf(parentName, parent) !== nftIdOf(name, record)) return null;
    if (parent.expirationMs === 0) return live(parentName) ? record : null;
    return expired(parent) ? null : record;
  };

  const render = (name: string, query: string) => {
    const record = live(name);
    if (!record) return null;
    const out: Record<string, unknown> = {
      domain: name,
      target: record.target === null ? null : { address: pad(record.target) },
    };
    if (/contents\s*\{/.test(query)) out.contents = { json: json(name, record) };
    if (/parent\s*\{/.test(query)) {
      const parentName = parentOf(name);
      const parent = parentName ? names.get(parentName) : undefined;
      out.parent = parentName && parent ? { contents: { json: json(parentName, parent) } } : null;
    }
    return out;
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') return send(res, 405, { errors: [{ message: 'use POST' }] });
      let body: { query?: unknown; variables?: Record<string, unknown> };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(res, 400, { data: null, errors: [{ message: 'Invalid JSON body' }] });
      }
      const query = typeof body.query === 'string' ? body.query : '';
      const variables = body.variables ?? {};
      requests.push({ query, variables });
      if (typeof failure === 'number') return send(res, failure, { errors: [{ message: 'stand-in failure' }] });
      if (typeof failure === 'string') return send(res, 200, { data: null, errors: [{ message: failure }] });
      if (/nameRecord\s*\(\s*name:/.test(query)) {
        return send(res, 200, { data: { nameRecord: render(String(variables.name ?? ''), query) } });
      }
      if (/address\s*\(\s*address:/.test(query) && /defaultNameRecord/.test(query)) {
        const address = pad(String(variables.address ?? ''));
        const name = defaults.get(address);
        return send(res, 200, {
          data: { address: { defaultNameRecord: name ? render(name, query) : null } },
        });
      }
      send(res, 200, { data: null, errors: [{ message: 'stand-in: query not supported' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/graphql`,
    requests,
    setName(name, record) {
      if (record) names.set(name, record);
      else names.delete(name);
    },
    setDefault(address, name) {
      if (name) defaults.set(pad(address), name);
      else defaults.delete(pad(address));
    },
    serveExpired(on) {
      expiredServed = on;
    },
    failWith(f) {
      failure = f;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
