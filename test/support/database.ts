import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throw-away database for one test file: a fresh PostgreSQL database when the suite runs with
 * DATABASE_URL=postgres://… (CI's second pass), otherwise an embedded SQLite file in a temp folder.
 */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  if (base && /^postgres(ql)?:\/\//.test(base)) {
    const name = `cipgate_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    // A test database is thrown away, never recovered from a crash: commits need not wait for the WAL to
    // reach the disk. Locks, isolation and what each transaction sees are unchanged.
    await admin.query(`alter database ${name} set synchronous_commit = off`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      async drop() {
        const c = new pg.Client({ connectionString: base });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'cipgate-test-'));
  return {
    url: `file:${join(dir, 'test.db')}`,
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const usingPostgres = (): boolean => /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');
