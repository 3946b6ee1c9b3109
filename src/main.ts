import 'reflect-metadata';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { seedDemoNames } from './registry/mns/demo.js';
import { seedSandboxPartner } from './sandbox/seed.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const app = await buildApp(config);
  if (config.sandboxSeed) {
    const names = await seedDemoNames(app.services.db);
    if (names) app.http.log.info({ names }, 'seeded labelled sandbox demo names into the MNS registry');
    const key = await seedSandboxPartner(app.services.db);
    // Printed to the terminal, not the log: the key must never be in a log line.
    if (key) {
      process.stdout.write(
        `\n  Sandbox partner created (1000 demo credits). Its API key, shown only this once:\n\n    ${key}\n\n` +
          `  Try: curl -H 'x-api-key: ${key}' http://localhost:${config.port}/partners/stats\n\n`,
      );
    }
  }
  await app.http.listen({ port: config.port, host: config.host });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.http.log.info({ signal }, 'draining in-flight requests before exit');
    // A hung request must not keep the process alive forever.
    setTimeout(() => process.exit(1), 15_000).unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.http.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
