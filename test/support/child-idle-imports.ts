// Builds the whole app in this process on the environment it was given, closes it, and prints the npm
// packages that start-up loaded (one JSON array on stdout), for the idle-imports test.
import { registerHooks } from 'node:module';

const loaded = new Set<string>();
registerHooks({
  load(url, context, nextLoad) {
    const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
    if (pkg) loaded.add(pkg);
    return nextLoad(url, context);
  },
});

await import('reflect-metadata');
const { buildApp } = await import('../../src/app.js');
const { loadConfig } = await import('../../src/platform/config.js');
const app = await buildApp(loadConfig(), { logger: false });
await app.close();
process.stdout.write(`${JSON.stringify([...loaded].sort())}\n`);
