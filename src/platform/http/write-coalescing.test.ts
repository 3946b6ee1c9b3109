import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { coalesceWrites } from './write-coalescing.js';

/** A server whose answers log when their handler ran and when they reached the socket. */
async function server(coalesce: boolean): Promise<{ app: FastifyInstance; events: string[]; payloads: string[] }> {
  const app = Fastify();
  const events: string[] = [];
  const payloads: string[] = [];
  if (coalesce) coalesceWrites(app);
  // What the hooks after it are given: a string, or bytes.
  app.addHook('onSend', (_request, _reply, payload, done) => {
    payloads.push(Buffer.isBuffer(payload) ? 'bytes' : typeof payload);
    done(null, payload);
  });
  app.addHook('onRequest', (request, reply, done) => {
    const end = reply.raw.end.bind(reply.raw) as (...args: unknown[]) => unknown;
    reply.raw.end = ((...args: unknown[]) => {
      events.push(`write ${(request.query as { n: string }).n}`);
      return end(...args);
    }) as typeof reply.raw.end;
    done();
  });
  app.get('/', async (request) => {
    const { n } = request.query as { n: string };
    events.push(`answer ${n}`);
    return { n };
  });
  app.get('/big', async (request) => {
    const { n } = request.query as { n: string };
    events.push(`answer ${n}`);
    return { n, padding: 'x'.repeat(20_000) };
  });
  app.get('/bad-header', async (_request, reply) => {
    reply.header('x-bad', 'line\nbreak');
    return { ok: true };
  });
  await app.ready();
  return { app, events, payloads };
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/**
 * Three requests on three connections, written to the kernel in one go, so the server reads all three in
 * one turn of its event loop (as under load); resolves with the three answers' status lines.
 */
async function threeAtOnce(app: FastifyInstance, path = '/'): Promise<string[]> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  // The server must have accepted all three first, or a later accept would split the turn.
  let accepted = 0;
  const allAccepted = new Promise<void>((resolve) =>
    app.server.on('connection', () => {
      if (++accepted === 3) resolve();
    }),
  );
  const sockets: Socket[] = [];
  for (let i = 0; i < 3; i++) {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    sockets.push(socket);
  }
  await allAccepted;
  const answers = sockets.map(async (socket) => {
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    socket.destroy();
    return chunk.toString().split('\r\n')[0] as string;
  });
  for (const [i, socket] of sockets.entries()) socket.write(`GET ${path}?n=${i + 1} HTTP/1.1\r\nhost: test\r\n\r\n`);
  return Promise.all(answers);
}

describe('coalesceWrites', () => {
  it('writes the answers of one turn after all of them were made', async () => {
    const s = await server(true);
    app = s.app;
    expect(await threeAtOnce(s.app)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    expect(s.events).toEqual(['answer 1', 'answer 2', 'answer 3', 'write 1', 'write 2', 'write 3']);
  });

  it('is what changes the order: without it each answer is written as soon as it is made', async () => {
    const s = await server(false);
    app = s.app;
    await threeAtOnce(s.app);
    expect(s.events).toEqual(['answer 1', 'write 1', 'answer 2', 'write 2', 'answer 3', 'write 3']);
  });

  it('writes a large answer at once', async () => {
    const s = await server(true);
    app = s.app;
    await threeAtOnce(s.app, '/big');
    expect(s.events).toEqual(['answer 1', 'write 1', 'answer 2', 'write 2', 'answer 3', 'write 3']);
  });

  it('hands a large string on as bytes, with the same body, type and length', async () => {
    const s = await server(true);
    app = s.app;
    const big = await s.app.inject({ url: '/big?n=é' });
    const small = await s.app.inject({ url: '/?n=1' });
    expect(s.payloads).toEqual(['bytes', 'string']);
    expect(big.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(big.headers['content-length'])).toBe(big.rawPayload.length);
    expect(big.json()).toEqual({ n: 'é', padding: 'x'.repeat(20_000) });
    expect(small.json()).toEqual({ n: '1' });
  });

  it('answers a send that throws with the error, as Fastify does when it sends at once', async () => {
    for (const coalesce of [false, true]) {
      const s = await server(coalesce);
      const res = await s.app.inject({ url: '/bad-header' });
      expect({ coalesce, status: res.statusCode, code: res.json().code }).toEqual({
        coalesce,
        status: 500,
        code: 'ERR_INVALID_CHAR',
      });
      await s.app.close();
    }
  });
});
