/**
 * A loopback stand-in for a Movement fullnode, speaking the Aptos REST API the way its reference
 * documents it (aptos.dev "Aptos Fullnode REST API", the OpenAPI spec served at /v1/spec):
 *   GET  /v1                             ledger info: chain_id, ledger_version, oldest_ledger_version,
 *                                        ledger_timestamp (µs), all u64 as decimal strings
 *   GET  /v1/transactions?start=&limit=  committed transactions from `start`, one per version
 *   POST /v1/view {function, type_arguments, arguments}   a JSON array of Move values
 *   errors: AptosError {message, error_code, vm_error_code}
 * Move values are encoded as the API encodes them: u64 as strings, addresses as `0x…`, `Option<T>` as
 * `{"vec": []}` / `{"vec": [v]}`. The view functions answer from a name table the test sets, with the
 * signatures of the Aptos Names router (aptos-labs/aptos-names-contracts, router/sources/router.move).
 *
 *   const node = await startFullnodeStandin({ moduleAddress: '0x…' });
 *   node.setName('alice', null, { target: '0x…', expiration: 1_900_000_000 });
 *   node.addTransaction({ sender, events: [node.event('RegisterNameEvent', {...})] });
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandinName {
  target: string | null;
  owner: string;
  /** Unix seconds. */
  expiration: number;
  /**
   * Held by the router's v1 path, whose target lookup (`get_v1_target_addr`) does not look at expiry
   * (core_v2 checks it only for v2 names).
   */
  v1?: boolean;
}

export interface StandinEvent {
  guid: { creation_number: string; account_address: string };
  sequence_number: string;
  type: string;
  data: unknown;
}

export interface FullnodeStandin {
  /** Base URL of the REST API, ending in /v1 as a fullnode's does. */
  readonly url: string;
  setName(domain: string, subdomain: string | null, name: StandinName | null): void;
  setPrimary(address: string, name: { domain: string; subdomain: string | null } | null): void;
  /** An event of the module (`<module address>::<module>::<struct>`), as transactions carry them. */
  event(struct: string, data: unknown, module?: string): StandinEvent;
  /** Appends a user transaction at the next version (block-less versions in between are not modelled). */
  addTransaction(tx: { sender: string; events: StandinEvent[]; timestampSecs?: number; success?: boolean }): string;
  /** Appends a state-checkpoint transaction (no events), as every block ends with. */
  addCheckpoint(): string;
  /** POST /v1/view bodies received. */
  readonly viewRequests: { function: string; type_arguments: unknown[]; arguments: unknown[] }[];
  /** GET /v1/transactions requests received (their `start`). */
  readonly pageRequests: string[];
  /** Make every request fail with this status until cleared (null). */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

const pad = (address: string): string => `0x${address.replace(/^0x/i, '').toLowerCase().padStart(64, '0')}`;
const option = (v: string | null) => ({ vec: v === null ? [] : [v] });

export async function startFullnodeStandin(options: {
  moduleAddress: string;
  /** Module holding the views, `router` as in Aptos Names. */
  viewModule?: string;
  chainId?: number;
  /** First version served (a pruned node's oldest_ledger_version). */
  firstVersion?: number;
}): Promise<FullnodeStandin> {
  const moduleAddress = pad(options.moduleAddress);
  const viewModule = options.viewModule ?? 'router';
  const names = new Map<string, StandinName>();
  const primary = new Map<string, { domain: string; subdomain: string | null }>();
  const transactions: Record<string, unknown>[] = [];
  const firstVersion = options.firstVersion ?? 0;
  const viewRequests: FullnodeStandin['viewRequests'] = [];
  const pageRequests: string[] = [];
  let failure: number | null = null;
  let sequence = 0;
  let clockSecs = 1_700_000_000;

  const key = (domain: string, subdomain: string | null) => (subdomain ? `${subdomain}.${domain}` : domain);
  const nextVersion = () => String(firstVersion + transactions.length);
  const ledgerVersion = () => String(Math.max(firstVersion, firstVersion + transactions.length - 1));

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const aptosError = (res: ServerResponse, status: number, message: string, errorCode: string) =>
    send(res, status, { message, error_code: errorCode, vm_error_code: null });

  const view = (fn: string, args: unknown[]): unknown[] | { abort: string } | null => {
    const [address, module, name] = fn.split('::');
    if (!address || pad(address) !== moduleAddress || module !== viewModule) return null;
    const nameArgs = () => {
      const [domain, sub] = args as [string, { vec: string[] }];
      return names.get(key(domain, sub?.vec?.[0] ?? null));
    };
    switch (name) {
      case 'get_target_addr': {
        const record = nameArgs();
        // The router answers none for an expired v2 name, as for an unregistered one.
        const live = record && (record.v1 || record.expiration > Date.now() / 1000);
        return [option(live ? record.target : null)];
      }
      case 'get_owner_addr': {
        const record = nameArgs();
        return [option(record ? record.owner : null)];
      }
      case 'get_expiration': {
        const record = nameArgs();
        if (!record)
          return {
            abort: `Move abort in ${moduleAddress}::v2_1_domains: ENAME_NOT_EXIST(0x60005): The domain does not exist`,
          };
        return [String(record.expiration)];
      }
      case 'get_primary_name': {
        const found = primary.get(pad(String(args[0])));
        return [option(found?.subdomain ?? null), option(found?.domain ?? null)];
      }
      default:
        return null;
    }
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://standin.invalid');
      if (failure !== null) return aptosError(res, failure, 'stand-in failure', 'internal_error');
      if (req.method === 'GET' && (url.pathname === '/v1' || url.pathname === '/v1/')) {
        return send(res, 200, {
          chain_id: options.chainId ?? 126,
          epoch: '1',
          ledger_version: ledgerVersion(),
          oldest_ledger_version: String(firstVersion),
          ledger_timestamp: String(clockSecs * 1_000_000),
          node_role: 'full_node',
          oldest_block_height: '0',
          block_height: String(transactions.length),
          git_hash: 'standin',
        });
      }
      if (req.method === 'GET' && url.pathname === '/v1/transactions') {
        const start = Number(url.searchParams.get('start') ?? firstVersion);
        const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 25));
        pageRequests.push(String(start));
        if (start < firstVersion) {
          return aptosError(res, 410, `Ledger version(${start}) has been pruned`, 'version_pruned');
        }
        if (start > Number(ledgerVersion())) {
          return aptosError(res, 404, `Ledger version(${start}) not found`, 'transaction_not_found');
        }
        return send(res, 200, transactions.slice(start - firstVersion, start - firstVersion + limit));
      }
      if (req.method === 'POST' && url.pathname === '/v1/view') {
        let body: { function: string; type_arguments: unknown[]; arguments: unknown[] };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return aptosError(res, 400, 'Failed to parse request body', 'invalid_input');
        }
        viewRequests.push(body);
        const answer = view(body.function, body.arguments ?? []);
        if (answer === null) return aptosError(res, 400, `function ${body.function} not found`, 'invalid_input');
        if ('abort' in answer) return aptosError(res, 400, answer.abort, 'invalid_input');
        return send(res, 200, answer);
      }
      aptosError(res, 404, `${req.method} ${url.pathname} not found`, 'web_framework_error');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const base = (type: string, extra: Record<string, unknown>) => {
    const version = nextVersion();
    transactions.push({
      version,
      hash: `0x${version.padStart(64, '0')}`,
      state_change_hash: `0x${'0'.repeat(64)}`,
      event_root_hash: `0x${'0'.repeat(64)}`,
      state_checkpoint_hash: null,
      gas_used: '0',
      success: true,
      vm_status: 'Executed successfully',
      accumulator_root_hash: `0x${'0'.repeat(64)}`,
      changes: [],
      type,
      ...extra,
    });
    return version;
  };

  return {
    url: `http://127.0.0.1:${port}/v1`,
    viewRequests,
    pageRequests,
    setName(domain, subdomain, name) {
      if (name) names.set(key(domain, subdomain), name);
      else names.delete(key(domain, subdomain));
    },
    setPrimary(address, name) {
      if (name) primary.set(pad(address), name);
      else primary.delete(pad(address));
    },
    event(struct, data, module = 'v2_1_domains') {
      return {
        guid: { creation_number: '0', account_address: '0x0' },
        sequence_number: String(sequence++),
        type: `${options.moduleAddress}::${module}::${struct}`,
        data,
      };
    },
    addTransaction(tx) {
      clockSecs = tx.timestampSecs ?? clockSecs + 1;
      return base('user_transaction', {
        sender: tx.sender,
        sequence_number: '0',
        max_gas_amount: '2000',
        gas_unit_price: '100',
        expiration_timestamp_secs: String(clockSecs + 60),
        payload: {
          type: 'entry_function_payload',
          function: `${options.moduleAddress}::router::x`,
          type_arguments: [],
          arguments: [],
        },
        events: tx.events,
        timestamp: String(clockSecs * 1_000_000),
        success: tx.success ?? true,
      });
    },
    addCheckpoint() {
      return base('state_checkpoint_transaction', { timestamp: String(clockSecs * 1_000_000) });
    },
    failWith(status) {
      failure = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
