/**
 * The baseline: the fastest honest server that gives the same answers from the same database. No
 * framework, no GraphQL engine, no ORM: `node:http` and one prepared statement per lookup, written once at
 * start — node:sqlite `DatabaseSync` for the embedded file (synchronous, so a request costs no Promise),
 * `pg` named statements for PostgreSQL (parsed and planned once per connection) over a pool of the
 * service's size. It does the checks a correct answer needs (the service's address, network and query
 * rules, key verification with the service's 1 s verified-key cache, expiry, mainnet-first preference,
 * the credit debit of a paid call) and nothing else, and answers the same JSON, GraphQL's
 * `extensions.credits` included. Benchmarks report the service as a ratio to this server, measured in the same run on the
 * same machine.
 *
 * Run by the bench as its own process: DATABASE_URL=file:…|postgres://… PORT=… node baseline-server.js
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { unescape as unescapeQuery } from 'node:querystring';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import pg from 'pg';
// A large answer is built in pieces and encoded once, as cipgate builds its own (json-text.ts has no
// imports: no framework comes with it). A string over 128 KiB, and every copy of one (the flat copy
// encoding a concatenated string makes, the header node:http prepends), is a fresh large-object mapping
// in V8, faulted in page by page: a baseline building one string would pay that where cipgate does not,
// and flatter the batch ratios.
import { Pieces } from '../src/platform/http/json-text.js';

/** A row as an array of its columns in select order: cheaper to build than an object on both drivers. */
type Row = unknown[];
type Param = string | number;
/** A value now (node:sqlite) or later (pg): handlers chain with `then`, so SQLite requests allocate no Promise. */
type Maybe<T> = T | Promise<T>;
const then = <T, U>(v: Maybe<T>, f: (t: T) => Maybe<U>): Maybe<U> => (v instanceof Promise ? v.then(f) : f(v));

const url = process.env.DATABASE_URL ?? '';
const sqlite = url.startsWith('file:');

// --- Statements: SQL fixed at start, `?` placeholders (numbered once for PostgreSQL) --------------------

interface Statement {
  id: number;
  name: string;
  sql: string;
  pg: string;
}
const statements: Statement[] = [];
const statement = (name: string, sql: string): Statement => {
  let n = 0;
  const s = { id: statements.length, name, sql, pg: sql.replace(/\?/g, () => `$${++n}`) };
  statements.push(s);
  return s;
};

const LIVE = '(expire_at is null or expire_at > ?)';
/**
 * The owner, null where it is stored as its own key: on SQLite the expression its covering index holds
 * (migration 0014), spelt as that index spells it, or SQLite would read `owner` from the table.
 */
const OWNER_OR_NULL = sqlite ? 'nullif(m.owner, m.owner_key)' : 'nullif(m.owner, m.owner_key::text)';
/**
 * One address on up to three networks (unused slots repeat the first): the primary-name index
 * (owner_key, network) yields them in network order, and '126' < '177' < '250' is the service's
 * mainnet-first preference, so the first row is the answer.
 */
const PRIMARY_NAME = statement(
  'primary_name',
  `select name, ${OWNER_OR_NULL} from mns_name m where owner_key = ? and is_primary and network in (?, ?, ?) and ${LIVE}
    order by network limit 1`,
);
/**
 * Many addresses in one statement, the list as one parameter (SQLite: a JSON array read by json_each,
 * cheaper than one lookup per address; PostgreSQL: one round trip, the string sent as it is). Each row
 * carries the position of its address in the list; the caller applies the preference. An owner stored as
 * its own key comes back as null, the key being in hand: the service's statement (registry/store.ts).
 */
const PRIMARY_NAMES = statement(
  'primary_names',
  sqlite
    ? `select k.key, m.name, ${OWNER_OR_NULL}, m.network from json_each(?) k
         join mns_name m on m.owner_key = k.value
        where m.is_primary and m.network in (?, ?, ?) and (m.expire_at is null or m.expire_at > ?)`
    : // PostgreSQL: the keys as one comma-separated text and each column as one text, as the service's
      // statement does (registry/store.ts): cheaper than rows from a JSON list.
      `select string_agg(k.i::text, ','), string_agg(m.name, chr(1)),
         string_agg(coalesce(nullif(m.owner, k.value), ''), chr(1)), string_agg(m.network, ',')
         from string_to_table(?, ',') with ordinality k(value, i)
         join mns_name m on m.owner_key = k.value::bpchar
        where m.is_primary and m.network in (?, ?, ?) and (m.expire_at is null or m.expire_at > ?)`,
);

/** PRIMARY_NAMES's PostgreSQL texts as the rows SQLite answers: `[position, name, owner or null, network]`. */
function columnRows([at, names, owners, networks]: Row): Row[] {
  if (at === null) return [];
  const positions = String(at).split(',');
  const nameList = String(names).split('\u0001');
  const ownerList = String(owners).split('\u0001');
  const networkList = String(networks).split(',');
  if (nameList.length !== positions.length || ownerList.length !== positions.length) {
    throw new Failure(500, 'a name holds U+0001');
  }
  return positions.map((p, j) => [Number(p), nameList[j], ownerList[j] === '' ? null : ownerList[j], networkList[j]]);
}

const API_KEY = statement(
  'api_key',
  `select k.hash, p.id, p.name, p.email, p.credit_balance, p.credit_usage
     from api_key k join partner p on p.id = k.partner_id where k.prefix = ? and k.revoked_at is null`,
);
/** One atomic statement: a paid answer is charged only while the balance covers it; answers what remains. */
const CHARGE = statement(
  'charge',
  `update partner set credit_balance = credit_balance - ?, credit_usage = credit_usage + ?
    where id = ? and credit_balance - credit_reserved >= ? returning credit_balance - credit_reserved as remaining`,
);
/**
 * MNS search in one range read: the exact name `<label>.snow` lies inside the prefix range of `<label>`,
 * so one index range scan yields both, mainnet rows first within each name.
 */
const SEARCH = statement(
  'search',
  `select name, network, owner, avatar, registered_at, expire_at, txt_records, multichain_addresses
     from mns_name where name >= ? and name < ? and ${LIVE} order by name, network limit ?`,
);

interface Db {
  get(s: Statement, params: Param[]): Maybe<Row | undefined>;
  all(s: Statement, params: Param[]): Maybe<Row[]>;
  /** The first position in a list (json_each counts from 0, `with ordinality` from 1). */
  first: number;
}

function sqliteDb(path: string): Db {
  const db = new DatabaseSync(path);
  db.exec('pragma busy_timeout = 10000');
  // The service's durability setting (src/platform/db/orm.ts): WAL with a sync at checkpoints.
  db.exec('pragma synchronous = normal');
  // 64 MiB of page cache instead of SQLite's 2 MiB: random reads of a 100k-name registry then stay in
  // memory instead of costing a read() per page, the service's setting too (src/platform/db/orm.ts).
  db.exec('pragma cache_size = -65536');
  const prepared = statements.map((s) => {
    const p = db.prepare(s.sql);
    p.setReturnArrays(true);
    return p;
  });
  type Bind = (string | number)[];
  return {
    get: (s, params) => (prepared[s.id] as StatementSync).get(...(params as Bind)) as unknown as Row | undefined,
    all: (s, params) => (prepared[s.id] as StatementSync).all(...(params as Bind)) as unknown as Row[],
    first: 0,
  };
}

function postgresDb(url: string): Db {
  // The service's pool size, so neither side wins by having more connections.
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // Named: each connection parses and plans a statement once, then only binds and executes it.
  const query = (s: Statement, values: Param[]) =>
    pool.query<Row>({ name: s.name, text: s.pg, values, rowMode: 'array' });
  return {
    get: (s, params) => query(s, params).then((r) => r.rows[0]),
    all: (s, params) => query(s, params).then((r) => r.rows),
    first: 1,
  };
}

const db = sqlite ? sqliteDb(url.slice('file:'.length)) : postgresDb(url);

// --- The same input rules as the service (src/features/resolution/registry) ------------------------

class Failure {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

const ADDRESS = /^0x([0-9a-fA-F]{1,64})$/;
/** The address's match key (lower case, 64 digits), or null when it is not a Movement address. */
const addressKey = (a: unknown): string | null => {
  const m = typeof a === 'string' ? ADDRESS.exec(a.trim()) : null;
  return m ? `0x${(m[1] as string).toLowerCase().padStart(64, '0')}` : null;
};

/** Networks of one CAIP-2 id, as the three `network in (?, ?, ?)` parameters, mainnet first. */
type Nets = readonly [string, string, string];
const ALL: Nets = ['126', '177', '250'];
const NETWORKS = new Map<string, Nets>([
  ['126', ['126', '126', '126']],
  ['mainnet', ['126', '126', '126']],
  ['177', ['177', '177', '177']],
  ['testnet', ['177', '177', '177']],
  ['250', ['250', '250', '250']],
  ['*', ALL],
]);
const CAIP2 = /^move-mvmt:([-_a-zA-Z0-9]{1,32}|\*)$/;
/** Absent (`undefined`/`null`) means every network where the operation allows it. */
const networksOf = (caip2Id: unknown): Nets => {
  if (caip2Id === undefined || caip2Id === null) return ALL;
  const m = typeof caip2Id === 'string' ? CAIP2.exec(caip2Id.trim()) : null;
  const nets = m ? NETWORKS.get((m[1] as string).toLowerCase()) : undefined;
  if (!nets) throw new Failure(400, 'invalid caip2Id');
  return nets;
};

const nowParam = () => new Date().toISOString();
const str = JSON.stringify as (s: string) => string;
/** `{"name":…,"owner":…}` of two columns. */
const nameJson = (name: unknown, owner: unknown) => `{"name":${str(String(name))},"owner":${str(String(owner))}}`;

// --- Handlers ------------------------------------------------------------------------------------------

function primaryName(address: unknown, caip2Id: unknown): Maybe<Row | undefined> {
  const nets = networksOf(caip2Id);
  const key = addressKey(address);
  if (key === null) throw new Failure(400, 'invalid address');
  return then(db.get(PRIMARY_NAME, [key, nets[0], nets[1], nets[2], nowParam()]), (row) => {
    if (row && row[1] === null) row[1] = key;
    return row;
  });
}

const MAX_BATCH = 1000;
/**
 * Each address's answering row (`[position, name, owner, network]`), by the address's position in the
 * list; a hole where it has no primary name. The lowest network of an address is the preferred one.
 */
function primaryNames(addresses: unknown, caip2Id: unknown): Maybe<(Row | undefined)[]> {
  if (!Array.isArray(addresses) || addresses.length > MAX_BATCH) throw new Failure(400, 'invalid addresses');
  const nets = networksOf(caip2Id);
  const keys = addresses.map(addressKey);
  if (keys.includes(null)) throw new Failure(400, 'invalid address');
  const params = [sqlite ? JSON.stringify(keys) : keys.join(','), nets[0], nets[1], nets[2], nowParam()];
  return then(db.all(PRIMARY_NAMES, params), (answer) => {
    const rows = sqlite ? answer : columnRows(answer[0] as Row);
    const best = new Array<Row | undefined>(keys.length);
    for (const row of rows) {
      const i = (row[0] as number) - db.first;
      if (row[2] === null) row[2] = keys[i];
      const seen = best[i];
      if (!seen || (row[3] as string) < (seen[3] as string)) best[i] = row;
    }
    return best;
  });
}

interface Partner {
  id: string;
  name: string;
  email: string;
  creditBalance: number;
  creditUsage: number;
}

const KEY = /^(cgk_[0-9a-f]{8})_([A-Za-z0-9_-]{43})$/;
/** The presented key's prefix and SHA-256, or a 401 when it is not shaped like a key. */
function presentedKey(req: IncomingMessage): { prefix: string; digest: Buffer } {
  const presented = req.headers['x-api-key'];
  const m = typeof presented === 'string' ? KEY.exec(presented) : null;
  if (!m) throw new Failure(401, 'Invalid API key');
  return { prefix: m[1] as string, digest: createHash('sha256').update(m[0]).digest() };
}

/** The key's partner, its stored SHA-256 compared in constant time: the service's own rule. */
function authenticate(req: IncomingMessage): Maybe<Partner> {
  const { prefix, digest } = presentedKey(req);
  return then(db.get(API_KEY, [prefix]), (row) => {
    if (!row || !timingSafeEqual(digest, Buffer.from(String(row[0]), 'hex'))) throw new Failure(401, 'Invalid API key');
    const [, id, name, email, balance, usage] = row;
    return {
      id: String(id),
      name: String(name),
      email: String(email),
      creditBalance: Number(balance),
      creditUsage: Number(usage),
    };
  });
}

/**
 * The partner a paid call is charged to. Like the service (src/platform/http/auth.ts), a key that verified
 * is trusted for 1 s by its SHA-256, so a revoked key is refused within 1 s and a paid call costs the
 * database one key check a second instead of one a request. At most 10 000 keys, oldest out first.
 */
const verified = new Map<string, { until: number; partnerId: string }>();
function payer(req: IncomingMessage): Maybe<string> {
  const { digest } = presentedKey(req);
  const id = digest.toString('base64');
  const now = Date.now();
  const hit = verified.get(id);
  if (hit && hit.until > now) return hit.partnerId;
  return then(authenticate(req), (partner) => {
    verified.delete(id);
    if (verified.size >= 10_000) verified.delete(verified.keys().next().value as string);
    verified.set(id, { until: now + 1000, partnerId: partner.id });
    return partner.id;
  });
}

/** The credits available once this charge is taken. */
function charge(partnerId: string, credits: number): Maybe<number> {
  return then(db.get(CHARGE, [credits, credits, partnerId, credits]), (row) => {
    if (!row) throw new Failure(400, 'Insufficient credits');
    return Number(row[0]);
  });
}

const CHAINS = new Map([['eip155:1', { name: 'Ethereum', symbol: 'ETH' }]]);
const MNS = {
  source: 'mns',
  provider: 'mns',
  providerName: 'Modular Naming Service',
  logoURI: 'https://www.modular.name/favicon.ico',
  // The service's URL scalar answers normalized URLs (a path of "/" at least).
  url: 'https://www.modular.name/',
};
const MAX_PREFIX_MATCHES = 500;
const MAX_PER_PAGE = 50;
const iso = (v: unknown): string | null =>
  v === null || v === undefined ? null : new Date(v instanceof Date ? v : String(v)).toISOString();

type SearchResult = { results: unknown[]; pagination: Record<string, number>; remaining: number };

/** A paid search: the key first (a 401 before any 400, as in the service), then the page, then the charge. */
function paidSearch(req: IncomingMessage, query: unknown, page: number, perPage: number): Maybe<SearchResult> {
  return then(payer(req), (partnerId) => {
    const prefix = typeof query === 'string' ? query.trim().normalize('NFC').toLowerCase() : '';
    if (!prefix) throw new Failure(400, 'query is required');
    if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
      throw new Failure(400, 'invalid page or perPage');
    }
    const exact = prefix.endsWith('.snow') ? prefix : `${prefix}.snow`;
    const last = prefix.codePointAt(prefix.length - 1) as number;
    const upper = prefix.slice(0, last > 0xffff ? -2 : -1) + String.fromCodePoint(last + 1);
    return then(db.all(SEARCH, [prefix, upper, nowParam(), MAX_PREFIX_MATCHES * ALL.length]), (rows) => {
      const result = searchPage(rows, exact, page, perPage);
      // Charged once the page is built: a failure before this point costs nothing.
      return then(charge(partnerId, 1), (remaining) => ({ ...result, remaining }));
    });
  });
}

function searchPage(rows: Row[], exact: string, page: number, perPage: number): Omit<SearchResult, 'remaining'> {
  const byName = new Map<string, Row>();
  for (const row of rows) if (!byName.has(String(row[0]))) byName.set(String(row[0]), row);
  const names = [...byName.keys()].slice(0, MAX_PREFIX_MATCHES);
  const exactHit = names.indexOf(exact);
  if (exactHit > 0) names.unshift(...names.splice(exactHit, 1));
  const start = (page - 1) * perPage;
  const results = names.slice(start, start + perPage).map((name) => {
    const [, network, owner, avatar, registeredAt, expireAt, txtRecords, multichainAddresses] = byName.get(name) as Row;
    return {
      name,
      ownerAddress: String(owner),
      ...MNS,
      caip2Id: `move-mvmt:${network}`,
      avatar: avatar === null ? null : String(avatar),
      expireAt: iso(expireAt),
      registeredAt: iso(registeredAt),
      multichainAddresses: (JSON.parse(String(multichainAddresses)) as { address: string; caip2Id: string }[]).map(
        (a) => ({
          address: a.address,
          caip2Id: a.caip2Id,
          chainName: CHAINS.get(a.caip2Id)?.name ?? null,
          symbol: CHAINS.get(a.caip2Id)?.symbol ?? null,
        }),
      ),
      txtRecords: JSON.parse(String(txtRecords)),
    };
  });
  return { results, pagination: { page, perPage, total: names.length, totalPages: Math.ceil(names.length / perPage) } };
}

/**
 * The GraphQL operations the bench sends, answered by the same handlers in the GraphQL response shape,
 * with the service's `extensions.credits` (what the answer costs and, when paid, what remains).
 */
const FREE = ',"extensions":{"credits":{"charged":0}}}';
function graphql(req: IncomingMessage, body: Record<string, unknown>): Maybe<string | Buffer> {
  const v = (body.variables ?? {}) as Record<string, unknown>;
  switch (body.operationName) {
    case 'PrimaryName':
      return then(primaryName(v.address, v.caip2Id ?? ''), (row) =>
        row ? `{"data":{"primaryName":${nameJson(row[0], row[1])}}${FREE}` : `{"data":{"primaryName":null}${FREE}`,
      );
    case 'PrimaryNames':
      return then(primaryNames(v.addresses, v.caip2Id), (hits) => {
        const addresses = v.addresses as string[];
        const out = new Pieces();
        out.put('{"data":{"primaryNames":[');
        let first = true;
        for (let i = 0; i < hits.length; i++) {
          const row = hits[i];
          if (!row) continue;
          out.put(
            `${first ? '' : ','}{"address":${str(addresses[i] as string)},"name":${str(String(row[1]))},"owner":${str(String(row[2]))}}`,
          );
          first = false;
        }
        out.put(`]}${FREE}`);
        return out.end();
      });
    case 'IdentitySearch':
      return then(paidSearch(req, v.query, Number(v.page ?? 1), Number(v.perPage ?? 10)), ({ remaining, ...page }) =>
        JSON.stringify({ data: { identitySearch: page }, extensions: { credits: { charged: 1, remaining } } }),
      );
    default:
      throw new Failure(400, `unknown operation ${String(body.operationName)}`);
  }
}

function publicNames(body: Record<string, unknown>): Maybe<string | Buffer> {
  return then(primaryNames(body.addresses, body.caip2Id), (hits) => {
    const addresses = body.addresses as string[];
    // An address sent twice is one key of the answer's object, as in the service's map.
    const seen = hits.length > 1 ? new Set<string>() : undefined;
    const out = new Pieces();
    out.put('{"data":{');
    let first = true;
    for (let i = 0; i < hits.length; i++) {
      const row = hits[i];
      const address = addresses[i] as string;
      if (!row || seen?.has(address)) continue;
      seen?.add(address);
      out.put(`${first ? '' : ','}${str(address)}:${nameJson(row[1], row[2])}`);
      first = false;
    }
    out.put('}}');
    return out.end();
  });
}

// --- HTTP ----------------------------------------------------------------------------------------------

/**
 * Query parameters decoded as URLSearchParams decodes them (`+` is a space). A parameter given twice is
 * kept as null: the service's schema refuses a repeated string parameter, and so does `param`.
 */
function queryOf(url: string, from: number): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  while (from < url.length) {
    let amp = url.indexOf('&', from);
    if (amp === -1) amp = url.length;
    let eq = url.indexOf('=', from);
    if (eq === -1 || eq > amp) eq = amp;
    if (eq > from) {
      const key = decode(url.slice(from, eq));
      out[key] = Object.hasOwn(out, key) ? null : eq === amp ? '' : decode(url.slice(eq + 1, amp));
    }
    from = amp + 1;
  }
  return out;
}
const decode = (s: string) => (s.includes('%') || s.includes('+') ? unescapeQuery(s.replaceAll('+', ' ')) : s);
const param = (q: Record<string, string | null>, key: string): string | undefined => {
  if (!Object.hasOwn(q, key)) return undefined;
  const value = q[key];
  if (value === null) throw new Failure(400, `${key} must be given once`);
  return value;
};

/** The service's body limit (BODY_LIMIT_BYTES' default) and content type. */
const BODY_LIMIT = 1_048_576;
function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    // Another content type is read as text by the service, which is then not an object either.
    if (!req.headers['content-type']?.startsWith('application/json')) {
      req.resume();
      reject(new Failure(400, 'body must be a JSON object'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > BODY_LIMIT) return reject(new Failure(413, 'body too large'));
      try {
        const body = JSON.parse(Buffer.concat(chunks, size).toString('utf8')) as unknown;
        if (typeof body === 'object' && body !== null && !Array.isArray(body))
          return resolve(body as Record<string, unknown>);
      } catch {
        // Falls through to the 400.
      }
      reject(new Failure(400, 'body must be a JSON object'));
    });
  });
}

function route(req: IncomingMessage): Maybe<string | Buffer> {
  const url = req.url ?? '/';
  const qi = url.indexOf('?');
  const path = qi === -1 ? url : url.slice(0, qi);
  const method = req.method;
  switch (path) {
    case '/api/public/identity/name': {
      if (method !== 'GET') break;
      const q = queryOf(url, qi + 1 || url.length);
      const caip2Id = param(q, 'caip2Id');
      if (caip2Id === undefined) throw new Failure(400, 'caip2Id is required');
      return then(primaryName(param(q, 'address'), caip2Id), (row) => {
        if (!row) throw new Failure(404, 'No primary name');
        return nameJson(row[0], row[1]);
      });
    }
    case '/api/public/identity/names':
      if (method !== 'POST') break;
      return readJson(req).then(publicNames);
    case '/partners/stats':
      if (method !== 'GET') break;
      return then(
        authenticate(req),
        (p) =>
          `{"email":${str(p.email)},"name":${str(p.name)},"creditBalance":${p.creditBalance},"creditUsage":${p.creditUsage}}`,
      );
    case '/partners/cip/identity/search': {
      if (method !== 'GET') break;
      const q = queryOf(url, qi + 1 || url.length);
      const page = param(q, 'page');
      const perPage = param(q, 'perPage');
      return then(
        paidSearch(
          req,
          param(q, 'query'),
          page === undefined ? 1 : Number(page),
          perPage === undefined ? 10 : Number(perPage),
        ),
        ({ remaining: _, ...result }) => JSON.stringify(result),
      );
    }
    case '/graphql':
      if (method !== 'POST') break;
      return readJson(req).then((body) => graphql(req, body));
    case '/readyz':
      if (method !== 'GET') break;
      return '{"status":"ready"}';
  }
  throw new Failure(404, 'Not found');
}

function send(res: ServerResponse, status: number, json: string | Buffer): void {
  const length = typeof json === 'string' ? Buffer.byteLength(json) : json.length;
  res.writeHead(status, ['content-type', 'application/json; charset=utf-8', 'content-length', length]);
  res.end(json);
}

function fail(res: ServerResponse, err: unknown): void {
  if (err instanceof Failure) send(res, err.status, `{"message":${str(err.message)}}`);
  else {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    send(res, 500, '{"message":"Internal server error"}');
  }
}

const server = createServer((req, res) => {
  let body: Maybe<string | Buffer>;
  try {
    body = route(req);
  } catch (err) {
    fail(res, err);
    return;
  }
  if (typeof body === 'string' || Buffer.isBuffer(body)) send(res, 200, body);
  else
    body.then(
      (json) => send(res, 200, json),
      (err: unknown) => fail(res, err),
    );
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
