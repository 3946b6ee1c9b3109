import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './orm.js';
import { scopeDatabaseFailures } from './request-scope.js';
import { isDatabaseUnavailable } from './unavailable.js';

/**
 * The mechanism, on an embedded database whichever the suite runs on (unavailable.test.ts holds the
 * service to its bound on PostgreSQL): once a request's statement met the database unavailable, its later
 * statements fail at once with that failure, until its answer is sent.
 */
describe('a request stops waiting on a database that already failed it', () => {
  let dir: string;
  let db: Database;
  let other: DatabaseSync;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cipgate-scope-'));
    const path = join(dir, 'test.db');
    db = await openDatabase(`file:${path}`, { poolMax: 1, acquireTimeoutMs: 100, statementTimeoutMs: 1000 });
    await db.run('create table t (n integer)');
    other = new DatabaseSync(path);
  });
  afterAll(async () => {
    other?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails the later statements of that request with the first failure, and only until it answers', async () => {
    const http = Fastify();
    scopeDatabaseFailures(http);
    const seen: unknown[] = [];
    let afterAnswer: Promise<unknown> | undefined;
    http.post('/', async (_request, reply) => {
      for (const step of [
        () => db.run('insert into t values (1)'),
        () => db.query('select n from t'),
        () => db.run('insert into t values (2)'),
        () => db.transaction((tx) => tx.run('insert into t values (3)')),
      ]) {
        seen.push(
          await step().then(
            () => 'ok',
            (err: unknown) => err,
          ),
        );
      }
      reply.raw.once('finish', () => {
        other.exec('rollback');
        afterAnswer = db.run('insert into t values (4)');
      });
      return { done: true };
    });
    other.exec('begin immediate');
    const res = await http.inject({ method: 'POST', url: '/', payload: {} });
    expect(res.statusCode).toBe(200);
    const [first, ...later] = seen;
    expect(isDatabaseUnavailable(first)).toBe(true);
    // The same error, so none of them ran (or waited on the lock) again; reads included.
    expect(later).toEqual([first, first, first]);
    await expect.poll(() => afterAnswer).toBeDefined();
    expect(await afterAnswer).toBe(1);
    expect(await db.query('select count(*) as n from t')).toEqual([{ n: 1 }]);
    await http.close();
  });
});
