// One subgraph served by its own process (src/subgraphs/serve.ts), for scale-out tests.
import 'reflect-metadata';
import { loadConfig } from '../../src/config.js';
import { subgraphs } from '../../src/subgraphs/index.js';
import { serveSubgraph } from '../../src/subgraphs/serve.js';

const definition = subgraphs.find((s) => s.name === process.env.SUBGRAPH_NAME);
if (!definition) throw new Error(`unknown subgraph ${process.env.SUBGRAPH_NAME}`);
const server = await serveSubgraph(definition, loadConfig());
await server.http.listen({ port: 0, host: '127.0.0.1' });
const address = server.http.server.address();
process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
