import { createHash } from 'node:crypto';

const digestOf = (text: string): string => `cipgate_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;

/**
 * Names for the hot PostgreSQL reads (`Database#queryRows`, sent straight to the pool as pg query configs
 * with a `name`), so each pooled connection parses and plans a statement text once and then only binds
 * and executes it; unnamed, every call is parsed and planned again.
 *
 * A name is a digest of its text, so two texts never share one, whoever else prepares statements on the
 * same server connections (a pooler hands them around). At most `max` texts are named; the rest (texts
 * built for a count of values, beyond the common ones) stay unnamed rather than fill every connection.
 *
 * PgBouncer in transaction mode before 1.21, or with `max_prepared_statements = 0`, hands a client's
 * statements to whichever server connection is free, where the name is unknown (26000) or already
 * prepared (42P05). Both refuse the statement before it runs: `refused` turns naming off for good and the
 * caller sends it again unnamed, so such a pooler costs one retry, never an error.
 */
export class StatementNames {
  readonly #names = new Map<string, string>();
  #naming = true;
  /** Names given after a stale plan: each one new, whichever text it is for. */
  #renamed = 0;

  constructor(private readonly max = 100) {}

  /** The name to prepare `text` under, or undefined to send it unnamed. */
  of(text: string): string | undefined {
    if (!this.#naming) return undefined;
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < this.max) {
      name = digestOf(text);
      this.#names.set(text, name);
    }
    return name;
  }

  /**
   * Whether `err` says a connection's plan of the statement named `name` no longer fits the tables: a
   * migration changed the type of a column it reads while this process ran (a rolling deploy). The
   * server keeps refusing that prepared statement on every connection that holds it, so `text` gets a
   * fresh name, which each connection prepares again on its next call. Only the name that failed is
   * replaced: calls that fail together on several connections rename it once.
   */
  stale(text: string, name: string, err: unknown): boolean {
    const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
    if (code !== '0A000' || typeof message !== 'string' || !message.includes('cached plan must not change result type'))
      return false;
    if (this.#names.get(text) === name) this.#names.set(text, `${digestOf(text)}_${++this.#renamed}`);
    return true;
  }

  /** Whether `err` refused a named statement before it ran; if so, no statement is named any more. */
  refused(err: unknown): boolean {
    const code = (err as { code?: unknown } | null)?.code;
    if (code !== '26000' && code !== '42P05') return false;
    this.#naming = false;
    return true;
  }
}
