import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** A port free on loopback right now (the OS picks it; the child binds it a moment later). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  name: string;
  url: string;
  pid: number;
  /** Resident set size in MiB, from /proc (Linux). */
  rssMiB(): number;
  stop(): Promise<void>;
}

/**
 * Starts `script` under the same Node binary as the bench (the project's pinned Node 24), on loopback,
 * and waits until `readyPath` answers 200. The child's output is kept in memory and shown only when
 * it fails to start, so a broken server explains itself.
 */
export async function startChild(options: {
  name: string;
  script: string;
  env: Record<string, string>;
  port: number;
  readyPath: string;
  nodeArgs?: string[];
  timeoutMs?: number;
}): Promise<Child> {
  const command = [process.execPath, ...(options.nodeArgs ?? []), options.script];
  const pinned = pinning();
  const child: ChildProcess = spawn(
    pinned ? 'taskset' : process.execPath,
    [...(pinned ? ['-c', String(pinned.server), ...command] : command.slice(1))],
    {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (exited !== undefined) throw new Error(`${options.name} exited with ${exited} before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} not ready within ${options.timeoutMs ?? 60_000} ms:\n${output}`);
    }
    try {
      const res = await fetch(`${url}${options.readyPath}`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  const pid = child.pid as number;
  return {
    name: options.name,
    url,
    pid,
    rssMiB: () => rssMiB(pid),
    async stop() {
      if (exited !== undefined) return;
      child.kill('SIGTERM');
      const killed = await Promise.race([exit.then(() => true), sleep(15_000).then(() => false)]);
      if (!killed) {
        child.kill('SIGKILL');
        await exit;
      }
    },
  };
}

/**
 * CPU pinning: the load generator (the bench process, autocannon included) on one core, every server on
 * another. On a 2-core machine the scheduler otherwise places the server, its GC and libuv threads and
 * the load generator as it likes, now side by side and now on one core, and the same build measured
 * from 0.29 to 0.45 of the baseline in runs minutes apart. Each server now gets one core, whole, and the
 * two sides are measured alike. Off (undefined) with one CPU or without util-linux's `taskset`.
 */
export function pinning(): { loadGenerator: number; server: number } | undefined {
  pinningChecked ??= availableParallelism() >= 2 && spawnSync('taskset', ['-p', String(process.pid)]).status === 0;
  return pinningChecked ? { loadGenerator: 0, server: 1 } : undefined;
}
let pinningChecked: boolean | undefined;

/** Moves this process (all its threads) to the load generator's core; says where everything runs. */
export function pinLoadGenerator(): string {
  const pinned = pinning();
  if (!pinned) return 'not pinned (one CPU, or no taskset)';
  execFileSync('taskset', ['-a', '-p', '-c', String(pinned.loadGenerator), String(process.pid)], { stdio: 'ignore' });
  return `load generator on CPU ${pinned.loadGenerator}, each server on CPU ${pinned.server}`;
}

export function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every `everyMs` while `work` runs; returns the work's result and the peak. */
export async function withRssPeak<T>(
  child: Child,
  work: () => Promise<T>,
  everyMs = 200,
): Promise<{ result: T; peakMiB: number }> {
  const { result, peaksMiB } = await withRssPeaks([child], work, everyMs);
  return { result, peakMiB: peaksMiB[0] as number };
}

/** `withRssPeak` for several processes at once: one peak each, in the order given. */
export async function withRssPeaks<T>(
  children: readonly Child[],
  work: () => Promise<T>,
  everyMs = 200,
): Promise<{ result: T; peaksMiB: number[] }> {
  const peaks = children.map((c) => c.rssMiB());
  const sample = () => {
    children.forEach((c, i) => {
      peaks[i] = Math.max(peaks[i] as number, c.rssMiB());
    });
  };
  const timer = setInterval(sample, everyMs);
  try {
    const result = await work();
    sample();
    return { result, peaksMiB: peaks };
  } finally {
    clearInterval(timer);
  }
}
