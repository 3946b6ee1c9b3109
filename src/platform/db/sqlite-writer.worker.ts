// The thread behind sqlite-writer.ts: its own connection to the file, one transaction a message. It
// imports Node's built-ins only, so that Node runs its TypeScript source as it is under the tests.
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

export interface WriterOptions {
  path: string;
  busyTimeoutMs: number;
}

/** Statements to run in one transaction, or null: close the connection and end the thread. */
export type WriteRequest = { id: number; statements: { sql: string; params: unknown[] }[] } | null;

/** The answer to a request: the error node:sqlite raised, its fields kept, if the transaction failed. */
export interface WriteAnswer {
  id: number;
  error?: { message: string; code?: string; errcode?: number; errstr?: string };
}

const port = parentPort;
if (port) {
  const { path, busyTimeoutMs } = workerData as WriterOptions;
  const db = new DatabaseSync(path, { timeout: busyTimeoutMs });
  // As orm.ts sets up its own connection (journal_mode belongs to the file, already WAL).
  db.exec('pragma synchronous = normal');
  db.exec('pragma cache_size = -65536');
  // A writer runs a few texts many times (an import: the insert of a full batch, a demotion a network).
  const prepared = new Map<string, StatementSync>();
  const statement = (sql: string): StatementSync => {
    let stmt = prepared.get(sql);
    if (stmt === undefined) {
      stmt = db.prepare(sql);
      if (prepared.size >= 64) prepared.delete(prepared.keys().next().value as string);
      prepared.set(sql, stmt);
    }
    return stmt;
  };
  // As orm.ts binds for node:sqlite: it refuses undefined, and booleans before Node 24 (a Date would
  // arrive as one, but the writer's callers send its text).
  const bind = (params: unknown[]): SQLInputValue[] => {
    for (let i = 0; i < params.length; i++) {
      const v = params[i];
      if (typeof v === 'boolean') params[i] = v ? 1 : 0;
      else if (v === undefined) params[i] = null;
    }
    return params as SQLInputValue[];
  };
  port.on('message', (request: WriteRequest) => {
    if (request === null) {
      db.close();
      port.close();
      return;
    }
    let answer: WriteAnswer;
    try {
      // IMMEDIATE takes the write lock first, waiting up to the busy timeout, instead of failing at once
      // when a read transaction cannot be upgraded because another connection writes.
      db.exec('begin immediate');
      try {
        for (const { sql, params } of request.statements) statement(sql).run(...bind(params));
        db.exec('commit');
      } catch (err) {
        if (db.isTransaction) db.exec('rollback');
        throw err;
      }
      answer = { id: request.id };
    } catch (err) {
      const { message, code, errcode, errstr } = err as Error & NonNullable<WriteAnswer['error']>;
      answer = { id: request.id, error: { message, code, errcode, errstr } };
    }
    port.postMessage(answer);
  });
}
