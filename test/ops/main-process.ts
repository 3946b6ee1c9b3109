import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The real entry point (`src/main.ts`) in its own process, as an operator starts it, with its output. */
export interface MainProcess {
  process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the log line (parsed) that satisfies `test`, or rejects when the process exits first. */
  waitForLog(test: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

export function startMain(env: Record<string, string>): MainProcess {
  const child = spawn(process.execPath, ['--import', './test/support/ts-loader.mjs', 'src/main.ts'], {
    cwd: root,
    // A clean environment for the settings under test: nothing inherited from the test run's own.
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout?.on('data', (chunk) => {
    out += chunk;
    for (const wake of waiters) wake();
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForLog(test, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines().find(test);
          if (!found) return;
          done();
          resolve(found);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no such log line within ${timeoutMs} ms:\n${out}\n${err}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        void exited.then(() => {
          if (!waiters.has(check)) return;
          check();
          if (waiters.has(check)) {
            done();
            reject(new Error(`process exited before the log line:\n${out}\n${err}`));
          }
        });
        check();
      });
    },
  };
}

/** The port a started server listens on, from Fastify's "Server listening at …" line. */
export async function listeningPort(main: MainProcess): Promise<number> {
  const line = await main.waitForLog((l) => String(l.msg).startsWith('Server listening at http://127.0.0.1:'));
  return Number(/:(\d+)$/.exec(String(line.msg))?.[1]);
}
