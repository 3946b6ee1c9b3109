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
}

/** One admin command, in a file of its own under cli/commands/. */
export interface AdminCommand {
  name: string;
  usage: string;
  summary: string;
  run(args: Args, io: CommandIO): Promise<void>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseArgs(argv: string[]): Args {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
      else if (i + 1 < argv.length && !(argv[i + 1] as string).startsWith('--'))
        flags.set(arg.slice(2), argv[++i] as string);
      else flags.set(arg.slice(2), true);
    } else positional.push(arg);
  }
  return { flags, positional };
}

export function requireFlag(args: Args, name: string): string {
  const value = args.flags.get(name);
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function intFlag(
  args: Args,
  name: string,
  options: { required?: boolean; min?: number } = {},
): number | undefined {
  const value = args.flags.get(name);
  if (value === undefined) {
    if (options.required) throw new UsageError(`--${name} is required`);
    return undefined;
  }
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isSafeInteger(n) || n < (options.min ?? 0)) {
    throw new UsageError(`--${name} must be a whole number ≥ ${options.min ?? 0}, got "${String(value)}"`);
  }
  return n;
}
