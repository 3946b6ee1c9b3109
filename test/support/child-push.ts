// A cipgate server in its own process for push tests that measure it: GET /test/push-stats collects
// garbage (with --expose-gc) and answers the open subscriptions' listeners and resident memory.
// Prints `LISTENING <port>` once ready.
import 'reflect-metadata';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/platform/config.js';

const app = await buildApp(loadConfig(), { logger: false });
app.http.get('/test/push-stats', async () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return { ...app.services.webhooks.pushStats(), rss: process.memoryUsage().rss, gc: gc !== undefined };
});
await app.http.listen({ port: 0, host: '127.0.0.1' });
const address = app.http.server.address();
process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
