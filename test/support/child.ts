import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildServer {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a test/support/child-*.ts script in a separate Node process on the given environment. */
export async function startChildServer(
  env: Record<string, string>,
  script = './test/support/child-server.ts',
): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', './test/support/ts-loader.mjs', script], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'silent', SANDBOX_SEED: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child server did not start:\n${stderr}`)), 60_000);
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child server exited with ${code}:\n${stderr}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
