// Hive Gateway (src/gateway-hive.ts) in its own process over the real subgraphs plus the metered test
// subgraph, for the router tests; HIVE_SUBGRAPHS (comma-separated) composes only those, so a test needs
// only their processes. Prints `LISTENING <port>` once ready.
import 'reflect-metadata';
import { startHiveGateway } from '../../src/gateway-hive.js';
import { loadConfig } from '../../src/platform/config.js';
import { withMetered } from './paid-subgraph.js';

const only = process.env.HIVE_SUBGRAPHS?.split(',');
const definitions = withMetered().filter((s) => !only || only.includes(s.name));
const gateway = await startHiveGateway(loadConfig(), definitions);
await gateway.http.listen({ port: 0, host: '127.0.0.1' });
const address = gateway.http.server.address();
process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => void gateway.close().then(() => process.exit(0)));
