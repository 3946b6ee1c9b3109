// Only the version check is imported statically: on an old Node the rest would fail to load (node:sqlite)
// before any of it could explain why. Everything else is imported once it has run.
import nodeModule from 'node:module';
import { requireSupportedNode } from './platform/node-version.js';

requireSupportedNode();
// Loading the modules is most of a start; Node's on-disk code cache makes every start after the first
// about a third faster (a public API since Node 22.1; absent before, hence the optional call).
nodeModule.enableCompileCache?.();
const { loadConfigOrExplain } = await import('./platform/config.js');

async function main(): Promise<void> {
  const config = loadConfigOrExplain();
  if (!config) process.exit(2);
  // Traces need their instrumentation hooked in before the modules it watches (http, pg, graphql) load.
  const telemetry = config.otelEndpoint
    ? await (await import('./platform/telemetry.js')).startTelemetry(config)
    : undefined;
  await import('reflect-metadata');
  const { buildApp } = await import('./app.js');
  const { sandboxBanner, sandboxKeyFile, seedSandboxPartner } = await import('./features/accounts/sandbox-seed.js');
  const { seedDemoNames } = await import('./features/resolution/registry/demo.js');
  const { DatabaseUnreachableError } = await import('./platform/db/orm.js');
  const { startupSummary } = await import('./startup-summary.js');
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config);
  } catch (err) {
    // An operator's mistake, not a bug: one line naming the setting, no driver stack trace.
    if (err instanceof DatabaseUnreachableError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  try {
    await app.http.listen({ port: config.port, host: config.host });
  } catch (err) {
    process.stderr.write(`Cannot listen on ${config.host}:${config.port} (HOST, PORT): ${(err as Error).message}\n`);
    await app.close().catch(() => {});
    process.exit(1);
  }
  app.http.log.info(startupSummary(config, app.services), 'cipgate started');
  // stdout carries one JSON log line per event: a library that prints (Mayan's swap SDK does while it
  // builds a transaction) is routed into the log instead of breaking those lines.
  const { format } = await import('node:util');
  const printed = app.http.log.child({ source: 'console' });
  console.log = console.info = console.debug = (...args: unknown[]) => printed.debug(format(...args));
  console.warn = (...args: unknown[]) => printed.warn(format(...args));
  // Seeded only once the server listens: a start that fails (port taken) must not create, and so lose,
  // the one-time sandbox key.
  if (config.sandboxSeed) {
    const names = await seedDemoNames(app.services.db);
    if (names) app.http.log.info({ names }, 'seeded labelled sandbox demo names into the MNS registry');
    const created = await seedSandboxPartner(app.services.db, sandboxKeyFile(config.databaseUrl));
    if (created) {
      // The log says where the key is, never the key itself.
      app.http.log.info(
        { keyFile: created.keyFile },
        'sandbox partner created (1000 demo credits); its API key is in keyFile',
      );
      if (process.stdout.isTTY) process.stdout.write(sandboxBanner(created.key, created.keyFile, config.port));
    }
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.http.log.info({ signal }, 'draining in-flight requests before exit');
    // A hung request must not keep the process alive forever.
    setTimeout(() => process.exit(1), 10_000).unref();
    app
      .close()
      .then(() => telemetry?.shutdown())
      .then(
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
