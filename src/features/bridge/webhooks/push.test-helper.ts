/**
 * A bare graphql-transport-ws client for tests that open many subscriptions or send what a well-behaved
 * client never would, and the LI.FI hash and answers the push tests use.
 */
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';

export const lifiFixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../test/fixtures/lifi/${name}`, import.meta.url), 'utf8'));

/** The hash LI.FI's documented status answers are about. */
export const TX = '0xe1ffdcf09d5aa92a2d89b1b39db3f8cadf09428a296cce0d5e387595ac83d08f';
/** Another well-formed EVM hash per `i`. */
export const txHash = (i: number) => `0x${(0xabc000 + i).toString(16).padStart(64, '0')}`;

export const SUBSCRIPTION =
  'subscription ($tx: String!) { bridgeStatusChanged(txHash: $tx) { sequence transfer { status } } }';

export interface ServerMessage {
  type: string;
  id?: string;
  payload?: unknown;
}

export interface RawSocket {
  ws: WebSocket;
  /** Every message received, in order. */
  messages: ServerMessage[];
  /** Resolves with the close code and reason once the socket closes. */
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  subscribe(id: string, query: string, variables?: Record<string, unknown>): void;
  complete(id: string): void;
  /** Messages of one subscription. */
  of(id: string): ServerMessage[];
  waitFor(what: string, ok: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const waitFor = async (what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 15_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** Opens a socket to `url` (ws://…/graphql); with `key`, sends connection_init and waits for the ack or the close. */
export async function openSocket(url: string, key?: string): Promise<RawSocket> {
  const ws = new WebSocket(url, 'graphql-transport-ws');
  const messages: ServerMessage[] = [];
  const byId = new Map<string, ServerMessage[]>();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as ServerMessage;
    messages.push(message);
    if (message.id !== undefined) {
      const list = byId.get(message.id) ?? [];
      list.push(message);
      byId.set(message.id, list);
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const socket: RawSocket = {
    ws,
    messages,
    closed,
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    subscribe: (id, query, variables) => socket.send({ id, type: 'subscribe', payload: { query, variables } }),
    complete: (id) => socket.send({ id, type: 'complete' }),
    of: (id) => byId.get(id) ?? [],
    waitFor: (what, ok, timeoutMs) => waitFor(what, ok, timeoutMs),
    async close() {
      if (ws.readyState === ws.CLOSED) return;
      ws.close();
      await closed;
    },
  };
  if (key !== undefined) {
    socket.send({ type: 'connection_init', payload: { 'x-api-key': key } });
    const acked = () => messages.some((m) => m.type === 'connection_ack');
    let done = false;
    void closed.then(() => {
      done = true;
    });
    await waitFor('connection_ack or close', () => acked() || done);
  }
  return socket;
}

/** The first error code a subscription got, as an `error` message or a `next` carrying errors. */
export function errorCode(socket: RawSocket, id: string): string | undefined {
  for (const m of socket.of(id)) {
    if (m.type === 'error') return (m.payload as { extensions?: { code?: string } }[])[0]?.extensions?.code;
    if (m.type === 'next') {
      const errors = (m.payload as { errors?: { extensions?: { code?: string } }[] }).errors;
      if (errors?.length) return errors[0]?.extensions?.code;
    }
  }
  return undefined;
}

/** The first error (message and extensions) a subscription got. */
export function firstError(
  socket: RawSocket,
  id: string,
): { message: string; extensions?: Record<string, unknown> } | undefined {
  for (const m of socket.of(id)) {
    if (m.type === 'error') return (m.payload as { message: string; extensions?: Record<string, unknown> }[])[0];
    if (m.type === 'next') {
      const errors = (m.payload as { errors?: { message: string; extensions?: Record<string, unknown> }[] }).errors;
      if (errors?.length) return errors[0];
    }
  }
  return undefined;
}

/** Events (data) a subscription got. */
export const events = (socket: RawSocket, id: string) =>
  socket
    .of(id)
    .filter((m) => m.type === 'next' && (m.payload as { data?: unknown }).data)
    .map(
      (m) =>
        (m.payload as { data: { bridgeStatusChanged: { sequence: number; transfer: { status: string } } } }).data
          .bridgeStatusChanged,
    );
