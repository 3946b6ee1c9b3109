import { type ParseArgsOptionsConfig, parseArgs as parseNodeArgs } from 'node:util';
import type { Database } from '../db/orm.js';

/** Parsed `--flag value` pairs and positional arguments of one admin command. */
export interface Args {
  flags: Map<string, string | true>;
  positional: string[];
}

export interface CommandIO {
  db: Database;
  out(line: string): void;
  json: boolean;
  /** Rewrites one status line on a terminal (stderr); absent when stderr is not a terminal, so logs stay clean. */
  progress?(line: string): void;
}

/** One admin command, in a file of its own in its feature's cli/ folder, listed in src/features/commands.ts. */
export interface AdminCommand {
  name: string;
  usage: string;
  summary: string;
  /** The flags it takes (`--json` is always accepted); any other flag is refused before it runs. */
  options?: ParseArgsOptionsConfig;
  run(args: Args, io: CommandIO): Promise<void>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

/** Parses with `node:util` strictly: an unknown or misspelt flag is a usage error, never silently ignored. */
export function parseArgs(argv: string[], options: ParseArgsOptionsConfig = {}): Args {
  let parsed: ReturnType<typeof parseNodeArgs>;
  try {
    parsed = parseNodeArgs({
      args: argv,
      options: { json: { type: 'boolean' }, ...options },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const flags = new Map<string, string | true>();
  for (const [name, value] of Object.entries(parsed.values)) {
    if (value === true || typeof value === 'string') flags.set(name, value);
  }
  return { flags, positional: parsed.positionals };
}

export function requireFlag(args: Args, name: string): string {
  const value = args.flags.get(name);
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A string flag's value; undefined when it was not given. */
export function stringFlag(args: Args, name: string): string | undefined {
  const value = args.flags.get(name);
  return typeof value === 'string' ? value : undefined;
}

/**
 * Runs `fn`, reporting an error of the domain's bad-input type as a UsageError (exit code 2, its
 * message shown) rather than as a failure of the command.
 */
export async function asUsageError<T>(
  inputError: abstract new (...args: never[]) => Error,
  fn: () => T | Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof inputError) throw new UsageError(err.message);
    throw err;
  }
}

/** Prints `value` as JSON under `--json` and reports whether it did, so the caller prints text otherwise. */
export function outJson(io: CommandIO, value: unknown): boolean {
  if (io.json) io.out(JSON.stringify(value));
  return io.json;
}

/** A plain decimal integer: `Number` would also read `0x10`, `1e3`, `0b1`, ` 7 ` or `1_0`. */
const DECIMAL = /^(0|[1-9][0-9]*)$/;

/**
 * A whole-number flag, written in plain decimal digits only, within [min, max] (min defaults to 0,
 * max to the largest safe integer).
 */
export function intFlag(
  args: Args,
  name: string,
  options: { required?: boolean; min?: number; max?: number } = {},
): number | undefined {
  const value = args.flags.get(name);
  if (value === undefined) {
    if (options.required) throw new UsageError(`--${name} is required`);
    return undefined;
  }
  const min = options.min ?? 0;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  const n = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(
      `--${name} must be a whole number in decimal digits from ${min} to ${max}, got "${String(value)}"`,
    );
  }
  return n;
}
