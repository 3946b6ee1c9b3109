// A whole cipgate server in its own process (with the metered test subgraph), for multi-process tests.
// Prints `LISTENING <port>` once ready.
import 'reflect-metadata';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/platform/config.js';
import { withMetered } from './paid-subgraph.js';

const app = await buildApp(loadConfig(), { logger: false, subgraphs: withMetered() });
await app.http.listen({ port: 0, host: '127.0.0.1' });
const address = app.http.server.address();
process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
