import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The V8 flags an npm script runs Node with (`start` for the service, `admin` for the CLI), read from
 * package.json, so the bench measures each process as operators run it.
 */
export function scriptNodeArgs(script: 'start' | 'admin'): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return (scripts[script] ?? '').split(/\s+/).filter((arg) => arg.startsWith('--'));
}

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
  /** CPU time used so far, in ms, from /proc (Linux). */
  cpuMs(): number;
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
  /** The CPU the process and all its threads run on (`place`); anywhere when undefined. */
  cpu?: number;
}): Promise<Child> {
  const command = [process.execPath, ...(options.nodeArgs ?? []), options.script];
  const pinned = options.cpu !== undefined ? ['taskset', '-c', String(options.cpu)] : [];
  const [file, ...args] = [...pinned, ...command] as [string, ...string[]];
  const child: ChildProcess = spawn(file, args, {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    cpuMs: () => cpuMs(pid),
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
 * Where one database's run places its processes. With the embedded database (SQLite) a server process is
 * the whole server side: the bench process (autocannon) runs on CPU 0 and every server, with all its
 * threads, on CPU 1. Unpinned, the scheduler places the server, its GC and libuv threads and the load
 * generator as it likes, now side by side and now on one core, and the same build reads very differently
 * from run to run. PostgreSQL's own processes are a third busy party that needs a share of both cores:
 * pinning the servers would leave the database the core of whichever process runs beside it, so nothing
 * is pinned there. Nothing is pinned with one CPU or without util-linux's `taskset`.
 */
export function place(embedded: boolean): { serverCpu?: number; description: string } {
  canPin ??= availableParallelism() >= 2 && spawnSync('taskset', ['-p', String(process.pid)]).status === 0;
  if (!canPin) return { description: 'not pinned (one CPU, or no taskset)' };
  const cpus = embedded ? '0' : `0-${availableParallelism() - 1}`;
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
  return embedded
    ? { serverCpu: 1, description: 'load generator on CPU 0, each server on CPU 1' }
    : { description: 'not pinned (the database server needs a share of every core)' };
}
let canPin: boolean | undefined;

/** Linux's clock tick (USER_HZ), the unit of /proc's CPU times: 100 on every common build. */
const TICK_MS = 10;

/** CPU time (user + system, every thread) a process has used, in ms, from /proc (Linux); 0 elsewhere. */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command name, which may hold spaces: state is field 3, utime 14 and stime 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU time the whole machine has been busy (user, nice, system, irq, softirq; all CPUs), in ms. */
export function machineBusyMs(): number {
  try {
    const all = readFileSync('/proc/stat', 'utf8');
    // The first line sums every CPU: `cpu  user nice system idle iowait irq softirq …`.
    const [user, nice, system, , , irq, softirq] = all.slice(4, all.indexOf('\n')).trim().split(/\s+/).map(Number);
    return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) * TICK_MS;
  } catch {
    return 0;
  }
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
