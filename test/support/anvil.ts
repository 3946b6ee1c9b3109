import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export interface Anvil {
  rpcUrl: string;
  port: number;
  /** Kills the node and waits for it to exit; safe to call twice. */
  stop(): Promise<void>;
}

export interface StartAnvilOptions {
  /** Chain id the node reports (anvil's default is 31337). */
  chainId?: number;
  /** How long to wait for the node to answer before giving up. */
  readyTimeoutMs?: number;
}

const ANVIL_BIN = fileURLToPath(new URL('../../node_modules/.bin/anvil', import.meta.url));

/** A port the OS just handed out; anvil binds it right after, so a clash is unlikely but retried. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('could not get a free port');
  return address.port;
}

async function answersChainId(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(500),
    });
    const body = (await res.json()) as { result?: unknown };
    return typeof body.result === 'string';
  } catch {
    return false;
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(timer);
}

async function startOnce(port: number, options: StartAnvilOptions): Promise<Anvil | null> {
  const args = ['--port', String(port), '--host', '127.0.0.1', '--silent'];
  if (options.chainId !== undefined) args.push('--chain-id', String(options.chainId));
  const child = spawn(ANVIL_BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // A test run that dies without calling stop() must not leave the node running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    await stopProcess(child);
  };

  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      // Lost the port to another process between probing and binding: let the caller retry.
      if (/address already in use/i.test(stderr)) return null;
      throw new Error(`anvil exited with code ${child.exitCode}: ${stderr.trim()}`);
    }
    if (await answersChainId(rpcUrl)) return { rpcUrl, port, stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`anvil did not answer on ${rpcUrl} within the timeout: ${stderr.trim()}`);
}

/**
 * Spawns a fresh anvil node on a free local port and resolves once it answers `eth_chainId`.
 * Call `stop()` in `afterAll`.
 */
export async function startAnvil(options: StartAnvilOptions = {}): Promise<Anvil> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const anvil = await startOnce(await freePort(), options);
    if (anvil) return anvil;
  }
  throw new Error('anvil could not bind a free port after 3 attempts');
}
