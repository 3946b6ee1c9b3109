import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WriteAnswer, WriteRequest, WriterOptions } from './sqlite-writer.worker.js';

export type { WriterOptions as SqliteFile } from './sqlite-writer.worker.js';

/** A statement with its values bound in order (`?` placeholders). */
export interface WriteStatement {
  sql: string;
  params: unknown[];
}

// The thread's module beside this one: compiled JavaScript in a build, the TypeScript source (which
// Node strips of its types) under the tests.
const WORKER = new URL(`./sqlite-writer.worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/**
 * Transactions on a thread of their own, through its own connection to the embedded database's file.
 * node:sqlite is synchronous: a write on the caller's connection stops its thread, so a bulk writer (an
 * import) could not parse its next batch while SQLite writes the last one. Here it can, on the other
 * core. Transactions run one after the other in the order given, each all or nothing.
 *
 * @example
 * const writer = new SqliteWriter({ path: 'data/cipgate.db', busyTimeoutMs: 10_000 });
 * try {
 *   await writer.transaction([{ sql: 'update t set x = ? where id = ?', params: [1, 2] }]);
 * } finally {
 *   await writer.close();
 * }
 */
export class SqliteWriter {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  #next = 0;
  #failure: Error | undefined;
  readonly #exited: Promise<void>;

  constructor(file: WriterOptions) {
    this.#worker = new Worker(WORKER, { workerData: file });
    const fail = (err: Error) => {
      this.#failure ??= err;
      for (const { reject } of this.#pending.values()) reject(this.#failure);
      this.#pending.clear();
    };
    this.#worker.on('message', ({ id, error }: WriteAnswer) => {
      const request = this.#pending.get(id);
      if (request === undefined) return;
      this.#pending.delete(id);
      // The database's own error, with node:sqlite's fields (isDatabaseUnavailable reads errcode).
      if (error) request.reject(Object.assign(new Error(error.message), error));
      else request.resolve();
    });
    // A connection that cannot open (a bad path) fails the thread: every transaction then fails with it.
    this.#worker.on('error', fail);
    this.#exited = new Promise((resolve) => {
      this.#worker.once('exit', (code) => {
        fail(new Error(`the SQLite writer thread ended (exit code ${code})`));
        resolve();
      });
    });
  }

  /** Runs the statements in one transaction; rejects with the database's error, nothing written. */
  transaction(statements: WriteStatement[]): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#next++;
    return new Promise<void>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, statements } satisfies WriteRequest);
    });
  }

  /** Ends the thread once the transactions sent have run, closing its connection. */
  async close(): Promise<void> {
    if (!this.#failure) this.#worker.postMessage(null satisfies WriteRequest);
    await this.#exited;
  }
}
