import type { FastifyInstance, FastifyReply } from 'fastify';

interface Pending {
  reply: FastifyReply;
  write: () => void;
}

/**
 * Larger answers are written at once: a wake-up is small beside what their requests cost, and holding
 * a large batch to the turn's end costs it more CPU. Streams too: they are written as they are read.
 *
 * A larger string is handed on as bytes. The serialisers build it by concatenation, and as a string it
 * would be copied twice more on its way out: once flattened to count its bytes (`content-length`), and
 * once more because `node:http` prepends the header to a string body and writes the joined string. As a
 * Buffer it is encoded once and goes out beside the header in one `writev`.
 */
const COALESCED_MAX_LENGTH = 16 * 1024;
const small = (payload: unknown): boolean =>
  (typeof payload === 'string' || Buffer.isBuffer(payload)) && payload.length <= COALESCED_MAX_LENGTH;

/**
 * Small answers finished in one turn of the event loop are written together at the turn's end
 * (setImmediate), instead of each as soon as it is ready.
 *
 * Why: a write to a peer on the same host that sleeps waiting for it (a reverse proxy, a gateway in front
 * of a subgraph process, the bench's load generator) wakes that peer on another core, and the waking
 * costs the writer a sizeable share of a small request's CPU. Written in a burst, the first write wakes
 * the peer and the others find it awake: less CPU per answer, and latency lower, not higher, because
 * the answers stop queueing behind the wake-ups. A turn's other answers delay a response by at most the
 * turn's remaining work (each request still runs to its answer before the turn ends).
 *
 * Register it after every other onSend hook (hooks apply to routes declared before them too): it then
 * sees the answer as it will be written, a small one waits only for its write, and the hooks before it
 * get the string they were written for, not the bytes a larger answer becomes here.
 */
export function coalesceWrites(http: FastifyInstance): void {
  let queued: Pending[] = [];
  const flush = () => {
    const pending = queued;
    queued = [];
    for (const { reply, write } of pending) {
      try {
        write();
      } catch (err) {
        // What Fastify does when a send it makes at once throws (an invalid header value): answer the error.
        // Each retry goes to the next error handler, down to Fastify's fallback, which writes directly.
        reply.send(err as Error);
      }
    }
  };
  http.addHook('onSend', (_request, reply, payload, done) => {
    if (!small(payload)) done(null, typeof payload === 'string' ? Buffer.from(payload) : payload);
    else if (queued.push({ reply, write: () => done(null, payload) }) === 1) setImmediate(flush);
  });
}
