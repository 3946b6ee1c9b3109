import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../../../test/support/database.js';
import { CreditLedger } from '../credits/ledger.js';
import { type Database, openDatabase } from './orm.js';

// Debian's package (`apt-get install pgbouncer`); the test needs it, and PostgreSQL.
const PGBOUNCER = '/usr/sbin/pgbouncer';
const SERVER_CONNECTIONS = 2;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

describe.runIf(usingPostgres() && existsSync(PGBOUNCER))('through PgBouncer in transaction mode', () => {
  let database: TestDatabase;
  let dir: string;
  let bouncer: ChildProcess;
  let db: Database;
  let url: URL;

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = new URL(database.url);
    dir = mkdtempSync(join(tmpdir(), 'cipgate-pgbouncer-'));
    const port = await freePort();
    writeFileSync(join(dir, 'users.txt'), `"${target.username}" ""\n`);
    writeFileSync(
      join(dir, 'pgbouncer.ini'),
      `[databases]
* = host=${target.hostname} port=${target.port || 5432}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'users.txt')}
pool_mode = transaction
default_pool_size = ${SERVER_CONNECTIONS}
max_client_conn = 200
; node-postgres sends these as startup parameters; in transaction mode a session setting cannot
; follow the client from one server connection to the next, so PgBouncer must drop them.
ignore_startup_parameters = extra_float_digits,statement_timeout,idle_in_transaction_session_timeout
logfile = ${join(dir, 'pgbouncer.log')}
`,
    );
    // PgBouncer refuses to run as root; it drops to another user itself when asked.
    const asUser = process.getuid?.() === 0 ? ['-u', 'nobody'] : [];
    chmodSync(dir, 0o777);
    bouncer = spawn(PGBOUNCER, [...asUser, join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
    url = new URL(database.url);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    // Ready once it accepts a query.
    for (let i = 0; ; i++) {
      const client = new pg.Client({ connectionString: url.toString() });
      try {
        await client.connect();
        await client.query('select 1');
        await client.end();
        break;
      } catch (err) {
        await client.end().catch(() => undefined);
        if (i > 50 || bouncer.exitCode !== null) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    // The serving limits, statement timeouts included: migrations (an advisory lock inside one
    // transaction) and every statement go through PgBouncer.
    db = await openDatabase(url.toString(), { poolMax: 10, acquireTimeoutMs: 5000, statementTimeoutMs: 5000 });
  }, 30_000);
  afterAll(async () => {
    await db?.close();
    bouncer?.kill('SIGTERM');
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('charges exactly with 10 client connections multiplexed over 2 server connections', async () => {
    const ledger = new CreditLedger(db, 60_000);
    const id = (
      await db.query<{ id: string }>(
        `insert into partner (id, name, email, credit_balance, credit_usage, credit_reserved, sandbox, created_at)
       values (gen_random_uuid(), 'Bounced', 'bounced@example.com', 300, 0, 0, false, now()) returning id`,
      )
    )[0]?.id as string;
    // 400 calls of 1 credit on a balance of 300, all at once; every third one records an answer in the
    // settling transaction (several statements in one transaction, the case transaction pooling must keep
    // on one server connection).
    const outcomes = await Promise.all(
      Array.from({ length: 400 }, async (_, i) => {
        const held = await ledger.reserve(id, 1, 'bounced', `b${i}`);
        if (!held.ok) return 'refused';
        const within = i % 3 === 0 ? async (tx: Pick<Database, 'run'>) => void (await tx.run('select 1')) : undefined;
        await ledger.settle(held.reservation, [{ operation: 'bounced', credits: 1 }], `b${i}`, within);
        return 'charged';
      }),
    );
    expect(outcomes.filter((o) => o === 'charged')).toHaveLength(300);
    const [row] = await db.query<Record<string, number | string>>(
      'select credit_balance, credit_usage, credit_reserved from partner where id = ?',
      [id],
    );
    expect([Number(row?.credit_balance), Number(row?.credit_usage), Number(row?.credit_reserved)]).toEqual([0, 300, 0]);
    const [charges] = await db.query<{ n: number | string }>(
      "select count(*) as n from ledger_entry where partner_id = ? and kind = 'charge'",
      [id],
    );
    expect(Number(charges?.n)).toBe(300);
    // PgBouncer really pooled: the server saw at most its pool for this database.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const seen = await admin.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [
      new URL(database.url).pathname.slice(1),
    ]);
    await admin.end();
    expect(Number(seen.rows[0]?.n)).toBeLessThanOrEqual(SERVER_CONNECTIONS + 1);
  }, 60_000);

  it('answers the hot reads, named on a direct connection, when PgBouncer refuses their names', async () => {
    // PgBouncer 1.18 hands a prepared name to whichever server connection is free next (statement-names.ts).
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => db.queryRows<[number]>('select ?::int + 1', [i])),
    );
    expect(answers.map((rows) => rows[0]?.[0])).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });
});
