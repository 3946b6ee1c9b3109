/**
 * The baseline: the least a server can do to give the same answers from the same database. No framework,
 * no GraphQL engine, no ORM: `node:http`, one prepared statement per lookup (node:sqlite `DatabaseSync`
 * for the embedded file, a `pg` pool of the service's size for PostgreSQL), and JSON in and out. It does
 * the same checks a correct answer needs (address and network parsing, key verification, expiry,
 * mainnet-first preference, the credit debit of a paid call) and nothing else. Benchmarks report the
 * service as a ratio to this server, measured in the same run on the same machine.
 *
 * Run by the bench as its own process: DATABASE_URL=file:…|postgres://… PORT=… node baseline-server.js
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';

type Row = Record<string, unknown>;
interface Db {
  /** Runs a statement written with `?` placeholders; `list` is one array parameter (PostgreSQL `any($n)`, SQLite `json_each`). */
  all(sql: string, params: unknown[]): Promise<Row[]>;
  run(sql: string, params: unknown[]): Promise<number>;
  /** The SQL for "column is one of the values in array parameter number `n` (1-based)". */
  inList(column: string, n: number): string;
  bool(v: boolean): unknown;
}

function sqliteDb(path: string): Db {
  const db = new DatabaseSync(path);
  db.exec('pragma busy_timeout = 10000');
  const cache = new Map<string, ReturnType<DatabaseSync['prepare']>>();
  const stmt = (sql: string) => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  const bind = (params: unknown[]) =>
    params.map((p) => (Array.isArray(p) ? JSON.stringify(p) : p)) as (string | number | null)[];
  return {
    all: async (sql, params) => stmt(sql).all(...bind(params)) as Row[],
    run: async (sql, params) => Number(stmt(sql).run(...bind(params)).changes),
    inList: (column) => `${column} in (select value from json_each(?))`,
    bool: (v) => (v ? 1 : 0),
  };
}

function postgresDb(url: string): Db {
  // The service's pool size, so neither side wins by having more connections.
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const numbered = new Map<string, string>();
  const text = (sql: string) => {
    let t = numbered.get(sql);
    if (t === undefined) {
      let n = 0;
      t = sql.replace(/\?/g, () => `$${++n}`);
      numbered.set(sql, t);
    }
    return t;
  };
  return {
    all: async (sql, params) => (await pool.query({ text: text(sql), values: params })).rows,
    run: async (sql, params) => (await pool.query({ text: text(sql), values: params })).rowCount ?? 0,
    inList: (column) => `${column} = any(?)`,
    bool: (v) => v,
  };
}

const url = process.env.DATABASE_URL ?? '';
const db = url.startsWith('file:') ? sqliteDb(url.slice('file:'.length)) : postgresDb(url);

// --- The same input rules as the service ------------------------------------------------------------

const ADDRESS = /^0x([0-9a-fA-F]{1,64})$/;
const addressKey = (a: unknown): string | null => {
  const m = typeof a === 'string' ? ADDRESS.exec(a.trim()) : null;
  return m ? `0x${(m[1] as string).toLowerCase().padStart(64, '0')}` : null;
};
const NETWORKS: Record<string, string[]> = {
  '126': ['126'],
  mainnet: ['126'],
  '177': ['177'],
  testnet: ['177'],
  '*': ['126', '177'],
};
const networksOf = (caip2Id: unknown): string[] | null => {
  if (caip2Id === undefined || caip2Id === null) return ['126', '177'];
  if (typeof caip2Id !== 'string' || !caip2Id.startsWith('move-mvmt:')) return null;
  return NETWORKS[caip2Id.slice('move-mvmt:'.length).toLowerCase()] ?? null;
};
/** Rows sorted with mainnet first: the first row per key is the answer. */
const MAINNET_FIRST = (a: Row, b: Row) => (a.network === b.network ? 0 : a.network === '126' ? -1 : 1);

const LIVE = '(expire_at is null or expire_at > ?)';
const nowParam = () => new Date().toISOString();

// --- Handlers ------------------------------------------------------------------------------------------

class Failure {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

async function primaryNames(
  addresses: unknown[],
  caip2Id: unknown,
): Promise<{ address: string; name: string; owner: string }[]> {
  const networks = networksOf(caip2Id);
  if (!networks) throw new Failure(400, 'invalid caip2Id');
  const keys = addresses.map(addressKey);
  if (keys.some((k) => k === null)) throw new Failure(400, 'invalid address');
  const rows = await db.all(
    `select owner_key, name, owner, network from mns_name
      where is_primary and ${db.inList('network', 1)} and ${db.inList('owner_key', 2)} and ${LIVE}`,
    [networks, [...new Set(keys)], nowParam()],
  );
  rows.sort(MAINNET_FIRST);
  const byKey = new Map<string, Row>();
  for (const row of rows) if (!byKey.has(String(row.owner_key))) byKey.set(String(row.owner_key), row);
  const out: { address: string; name: string; owner: string }[] = [];
  keys.forEach((key, i) => {
    const row = byKey.get(key as string);
    if (row) out.push({ address: addresses[i] as string, name: String(row.name), owner: String(row.owner) });
  });
  return out;
}

interface Partner {
  id: string;
  name: string;
  email: string;
  creditBalance: number;
  creditUsage: number;
}

const KEY = /^(cgk_[0-9a-f]{8})_([A-Za-z0-9_-]{43})$/;
/** The presented key's partner, compared by SHA-256 in constant time: the service's own rule. */
async function authenticate(req: IncomingMessage): Promise<Partner> {
  const presented = req.headers['x-api-key'];
  const m = typeof presented === 'string' ? KEY.exec(presented) : null;
  if (!m) throw new Failure(401, 'Invalid API key');
  const [row] = await db.all(
    `select k.hash, p.id, p.name, p.email, p.credit_balance, p.credit_usage
       from api_key k join partner p on p.id = k.partner_id where k.prefix = ? and k.revoked_at is null`,
    [m[1]],
  );
  const hash = createHash('sha256')
    .update(presented as string)
    .digest();
  if (!row || !timingSafeEqual(hash, Buffer.from(String(row.hash), 'hex'))) throw new Failure(401, 'Invalid API key');
  return {
    id: String(row.id),
    name: String(row.name),
    email: String(row.email),
    creditBalance: Number(row.credit_balance),
    creditUsage: Number(row.credit_usage),
  };
}

/** One atomic statement: a paid answer is charged only while the balance covers it. */
async function charge(partner: Partner, credits: number): Promise<void> {
  const changed = await db.run(
    'update partner set credit_balance = credit_balance - ?, credit_usage = credit_usage + ? where id = ? and credit_balance - credit_reserved >= ?',
    [credits, credits, partner.id, credits],
  );
  if (changed !== 1) throw new Failure(400, 'Insufficient credits');
}

const CHAINS: Record<string, { name: string; symbol: string }> = { 'eip155:1': { name: 'Ethereum', symbol: 'ETH' } };
const MNS = {
  source: 'mns',
  provider: 'mns',
  providerName: 'Modular Naming Service',
  logoURI: 'https://www.modular.name/favicon.ico',
  // The service's URL scalar answers normalized URLs (a path of "/" at least).
  url: 'https://www.modular.name/',
};
const MAX_PREFIX_MATCHES = 500;
const iso = (v: unknown): string | null =>
  v === null || v === undefined ? null : new Date(v instanceof Date ? v : String(v)).toISOString();

/**
 * MNS search in one range read: the exact name `<label>.snow` lies inside the prefix range of `<label>`,
 * so one index range scan yields both, mainnet rows first within each name.
 */
async function search(query: string, page: number, perPage: number) {
  const prefix = query.trim().normalize('NFC').toLowerCase();
  const exact = prefix.endsWith('.snow') ? prefix : `${prefix}.snow`;
  const last = prefix.codePointAt(prefix.length - 1) as number;
  const upper = prefix.slice(0, -1) + String.fromCodePoint(last + 1);
  const rows = await db.all(
    `select name, network, owner, avatar, registered_at, expire_at, txt_records, multichain_addresses
       from mns_name where name >= ? and name < ? and ${LIVE} order by name, network limit ?`,
    [prefix, upper, nowParam(), MAX_PREFIX_MATCHES * 2],
  );
  const byName = new Map<string, Row>();
  for (const row of rows) if (!byName.has(String(row.name))) byName.set(String(row.name), row);
  const names = [...byName.keys()].slice(0, MAX_PREFIX_MATCHES);
  const exactHit = names.indexOf(exact);
  if (exactHit > 0) names.unshift(...names.splice(exactHit, 1));
  const start = (page - 1) * perPage;
  const results = names.slice(start, start + perPage).map((name) => {
    const row = byName.get(name) as Row;
    return {
      name,
      ownerAddress: String(row.owner),
      ...MNS,
      caip2Id: `move-mvmt:${row.network}`,
      avatar: row.avatar === null ? null : String(row.avatar),
      expireAt: iso(row.expire_at),
      registeredAt: iso(row.registered_at),
      multichainAddresses: (JSON.parse(String(row.multichain_addresses)) as { address: string; caip2Id: string }[]).map(
        (a) => ({
          address: a.address,
          caip2Id: a.caip2Id,
          chainName: CHAINS[a.caip2Id]?.name ?? null,
          symbol: CHAINS[a.caip2Id]?.symbol ?? null,
        }),
      ),
      txtRecords: JSON.parse(String(row.txt_records)),
    };
  });
  const MAX_PER_PAGE = 50;
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
    throw new Failure(400, 'invalid page or perPage');
  }
  return { results, pagination: { page, perPage, total: names.length, totalPages: Math.ceil(names.length / perPage) } };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // Falls through to the 400.
  }
  throw new Failure(400, 'body must be a JSON object');
}

const intParam = (v: string | null, fallback: number) => (v === null ? fallback : Number(v));

/** The GraphQL operations the bench sends, answered by the same handlers in the GraphQL response shape. */
async function graphql(req: IncomingMessage): Promise<unknown> {
  const body = await readJson(req);
  const v = (body.variables ?? {}) as Record<string, unknown>;
  switch (body.operationName) {
    case 'PrimaryName': {
      const [hit] = await primaryNames([v.address], v.caip2Id);
      return { data: { primaryName: hit ? { name: hit.name, owner: hit.owner } : null } };
    }
    case 'PrimaryNames':
      return { data: { primaryNames: await primaryNames(v.addresses as unknown[], v.caip2Id) } };
    case 'IdentitySearch': {
      const partner = await authenticate(req);
      const result = await search(String(v.query), Number(v.page ?? 1), Number(v.perPage ?? 10));
      await charge(partner, 1);
      return { data: { identitySearch: result } };
    }
    default:
      throw new Failure(400, `unknown operation ${String(body.operationName)}`);
  }
}

async function route(req: IncomingMessage): Promise<unknown> {
  const u = new URL(req.url ?? '/', 'http://localhost');
  const q = u.searchParams;
  const key = `${req.method} ${u.pathname}`;
  switch (key) {
    case 'GET /readyz':
      return { status: 'ready' };
    case 'GET /api/public/identity/name': {
      const [hit] = await primaryNames([q.get('address')], q.get('caip2Id') ?? '');
      if (!hit) throw new Failure(404, 'No primary name');
      return { name: hit.name, owner: hit.owner };
    }
    case 'POST /api/public/identity/names': {
      const body = await readJson(req);
      if (!Array.isArray(body.addresses) || body.addresses.length > 1000) throw new Failure(400, 'addresses');
      const data: Record<string, { name: string; owner: string }> = {};
      for (const hit of await primaryNames(body.addresses, body.caip2Id))
        data[hit.address] = { name: hit.name, owner: hit.owner };
      return { data };
    }
    case 'GET /partners/stats': {
      const { email, name, creditBalance, creditUsage } = await authenticate(req);
      return { email, name, creditBalance, creditUsage };
    }
    case 'GET /partners/cip/identity/search': {
      const partner = await authenticate(req);
      const query = q.get('query');
      if (!query?.trim()) throw new Failure(400, 'query is required');
      const result = await search(query, intParam(q.get('page'), 1), intParam(q.get('perPage'), 10));
      await charge(partner, 1);
      return result;
    }
    case 'POST /graphql':
      return graphql(req);
    default:
      throw new Failure(404, 'Not found');
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

const server = createServer((req, res) => {
  route(req).then(
    (body) => send(res, 200, body),
    (err: unknown) => {
      if (err instanceof Failure) send(res, err.status, { message: err.message });
      else {
        process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
        send(res, 500, { message: 'Internal server error' });
      }
    },
  );
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
