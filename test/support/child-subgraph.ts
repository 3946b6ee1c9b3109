// One subgraph served by its own process (src/subgraphs/serve.ts), for scale-out tests. It listens where
// the real `npm run subgraph` would (SUBGRAPH_HOST, SUBGRAPH_PORT; port 0 unless told) and prints
// `LISTENING <port> <address>`.
import 'reflect-metadata';
import { loadConfig } from '../../src/platform/config.js';
import { serveSubgraph } from '../../src/subgraph-server.js';
import { withMetered } from './paid-subgraph.js';

const definition = withMetered().find((s) => s.name === process.env.SUBGRAPH_NAME);
if (!definition) throw new Error(`unknown subgraph ${process.env.SUBGRAPH_NAME}`);
const server = await serveSubgraph(definition, loadConfig({ SUBGRAPH_PORT: '0', ...process.env }));
const address = await server.listen();
process.stdout.write(`LISTENING ${address.port} ${address.address}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
