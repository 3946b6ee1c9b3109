import { createHook } from 'node:async_hooks';

let pinned: object | undefined;

/**
 * Keeps one of `process.nextTick`'s queue entries alive for the life of the process, so that V8 never
 * collects the object shapes (maps) those entries are built with.
 *
 * Why: Node builds each entry as an object literal with computed symbol keys, and V8 remembers, per key,
 * the one shape it saw there. When a full garbage collection runs while no entry is alive (start-up's
 * memory release, start-up-memory.ts, or any collection on an idle server), the shapes die with the
 * entries and V8 clears what it remembered. The next entry then has a freshly made shape that matches
 * nothing remembered, V8 marks those keys as seen with many shapes, and from then on every entry is
 * built through V8's runtime instead of the optimised code: 0.6–1.8 µs a tick instead of 0.15–0.5, six
 * to eight ticks a request in Node's HTTP and stream code. Measured under callgrind on the bench's
 * SQLite single lookups: 43,600 of the server's 249,600 instructions a request (17 %), none in the
 * baseline's process, which never ran a full collection while idle. A kept entry keeps its shape, and
 * every shape it was built from, alive.
 *
 * The entry is caught with an async hook, on for the one `nextTick` call below. Call it first thing in a
 * server process, before any collection could have run with no entry alive.
 */
export function pinTickObjectShape(): object | undefined {
  if (pinned) return pinned;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') pinned = resource as object;
    },
  }).enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
  return pinned;
}
