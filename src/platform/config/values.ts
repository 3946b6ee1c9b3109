/** The environment loadConfig reads: process.env, or a plain object in tests. */
export type Env = Record<string, string | undefined>;

/** Every problem in the environment at once, so one failed start names them all. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * The readers every section uses. A bad value is recorded as a problem naming its variable and answered
 * with the fallback, so the remaining sections are still read and every problem is reported together.
 */
export interface Reader {
  /** The trimmed value; unset and empty are both undefined. */
  str(name: string): string | undefined;
  int(name: string, fallback: number, min: number, max: number): number;
  bool(name: string, fallback: boolean): boolean;
  url(name: string, protocols: string[]): string | undefined;
  /** A 0x-prefixed 20-byte EVM address. */
  address(name: string): string | undefined;
  /** The value's comma-separated items, untrimmed and unfiltered; none when unset. */
  list(name: string): string[];
  /** Records a problem found by a section's own check. */
  problem(message: string): void;
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

/** A reader over `env` and the problems it has recorded so far. */
export function createReader(env: Env): { read: Reader; problems: string[] } {
  const problems: string[] = [];
  const problem = (message: string) => {
    problems.push(message);
  };
  const str = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === '' ? undefined : v;
  };
  const read: Reader = {
    str,
    int(name, fallback, min, max) {
      const raw = str(name);
      if (raw === undefined) return fallback;
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min || n > max) {
        problem(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
        return fallback;
      }
      return n;
    },
    bool(name, fallback) {
      const raw = str(name)?.toLowerCase();
      if (raw === undefined) return fallback;
      if (TRUE.includes(raw)) return true;
      if (FALSE.includes(raw)) return false;
      problem(`${name} must be true or false, got "${raw}"`);
      return fallback;
    },
    url(name, protocols) {
      const raw = str(name);
      if (raw === undefined) return undefined;
      try {
        if (protocols.includes(new URL(raw).protocol)) return raw;
      } catch {}
      problem(`${name} must be a URL (${protocols.join(' or ')}), got "${raw}"`);
      return undefined;
    },
    address(name) {
      const raw = str(name);
      if (raw !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(raw)) {
        problem(`${name} must be a 0x-prefixed 20-byte hex address, got "${raw}"`);
        return undefined;
      }
      return raw;
    },
    list: (name) => str(name)?.split(',') ?? [],
    problem,
  };
  return { read, problems };
}
