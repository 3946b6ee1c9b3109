import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Hands back the memory start-up used and no request needs: one full, memory-reducing collection (V8's
 * "last resort" flavour, what it runs before giving up on an allocation), which also shrinks the young
 * generation to its smallest size; it grows again, up to `--max-semi-space-size`, only under load.
 *
 * Why: start-up (the supergraph, the schemas, the query planner, the REST routes' plans) allocates
 * enough short-lived objects to grow the young generation to its maximum before the server is ready
 * (~85 MiB with no cap), and V8 keeps it there. With a 16 MiB semi-space that left the embedded default's idle resident
 * set at 160 MiB; an 8 MiB one kept it at ~145 MiB but made the 1000-address batches on PostgreSQL pay
 * for twice the scavenges (bench/README.md).
 *
 * `gc` exists only in a context made after `--expose-gc` is set; the process's own global stays as it was.
 * Such a collection, with no `nextTick` entry alive, would leave every later tick on V8's slow path:
 * main.ts pins an entry first (tick-shape.ts).
 */
export function releaseStartUpMemory(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: string; execution: string; flavor: string }) => void;
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
