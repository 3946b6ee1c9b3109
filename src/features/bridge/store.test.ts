/**
 * How transaction hashes are linked to quoted routes: claims are per partner, so one partner's claim on
 * a hash never blocks another partner's; a chain-proven link outranks every claim.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { NATIVE_EVM } from '../../platform/chains/registry.js';
import { BridgeStore } from './store.js';

describe('BridgeStore links', () => {
  let app: TestApp;
  let store: BridgeStore;
  beforeAll(async () => {
    app = await startTestApp();
    store = new BridgeStore(app.services.db);
  });
  afterAll(() => app?.stop());

  /** A stored route of `partnerId`, as saveRoutes leaves it (the columns the links use). */
  const route = async (partnerId: string): Promise<string> => {
    const id = randomUUID();
    await app.services.db.run(
      `insert into bridge_route (id, partner_id, provider, from_chain, to_chain, request, route, created_at)
       values (?, ?, 'sandbox', 'eip155:1', 'eip155:10', '{}', '{}', ?)`,
      [id, partnerId, new Date()],
    );
    return id;
  };
  const partners = async () => [(await app.partner(1)).id, (await app.partner(1)).id, (await app.partner(1)).id];
  const hash = () => `0x${randomUUID().replaceAll('-', '').repeat(2)}`;

  it('lets two partners claim one hash, each for its own route, and shows each only its own claim', async () => {
    const [t, v, w] = (await partners()) as [string, string, string];
    const [tRoute, vRoute] = [await route(t), await route(v)];
    const h = hash();
    expect(await store.link(tRoute, h, 'partner')).toBe(true);
    expect(await store.link(vRoute, h, 'partner')).toBe(true);
    expect((await store.routeByTx(h, t))?.id).toBe(tRoute);
    expect((await store.routeByTx(h, v))?.id).toBe(vRoute);
    expect(await store.routeByTx(h, w)).toBeUndefined();
    // Either claim is still where it was.
    expect((await store.routeById(tRoute))?.txHash).toBe(h);
    expect((await store.routeById(vRoute))?.txHash).toBe(h);
  });

  it('keeps one route per hash for one partner: a second claim of its own is refused', async () => {
    const [t] = (await partners()) as [string];
    const [first, second] = [await route(t), await route(t)];
    const h = hash();
    expect(await store.link(first, h, 'partner')).toBe(true);
    expect(await store.link(second, h, 'partner')).toBe(false);
    expect((await store.routeByTx(h, t))?.id).toBe(first);
  });

  it('a chain proof replaces every claim on the hash, is seen by all, and no claim replaces it', async () => {
    const [t, v, w] = (await partners()) as [string, string, string];
    const [tRoute, vRoute, vOther] = [await route(t), await route(v), await route(v)];
    const h = hash();
    expect(await store.link(tRoute, h, 'partner')).toBe(true);
    expect(await store.link(vOther, h, 'partner')).toBe(true);
    expect(await store.link(vRoute, h, 'chain')).toBe(true);
    for (const p of [t, v, w]) expect((await store.routeByTx(h, p))?.id).toBe(vRoute);
    expect((await store.routeById(tRoute))?.txHash).toBeNull();
    expect((await store.routeById(vOther))?.txHash).toBeNull();
    expect(await store.link(tRoute, h, 'partner')).toBe(false);
  });
});

describe('bridge status: a partner claiming another partner’s transaction hash', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.stop());

  const get = (url: string, key: string) => app.http.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
  const quote = async (key: string) => {
    const q = new URLSearchParams({
      fromChain: 'eip155:1',
      toChain: 'eip155:10',
      fromToken: NATIVE_EVM,
      toToken: NATIVE_EVM,
      fromAmount: '100000000000000000',
      fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    });
    const res = await get(`/partners/bridge/quote?${q}`, key);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().routes[0].id as string;
  };

  it('does not stop the hash’s owner from linking it to its own route', async () => {
    const thief = await app.partner(20, 'Sandbox Thief', { sandbox: true });
    const victim = await app.partner(20, 'Sandbox Victim', { sandbox: true });
    const [thiefRoute, victimRoute] = [await quote(thief.apiKey), await quote(victim.apiKey)];
    const hash = `0x${'6b'.repeat(32)}`;

    const claimed = await get(`/partners/bridge/status?txHash=${hash}&routeId=${thiefRoute}`, thief.apiKey);
    expect(claimed.statusCode, claimed.body).toBe(200);
    const own = await get(`/partners/bridge/status?txHash=${hash}&routeId=${victimRoute}`, victim.apiKey);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ status: 'PENDING', bridge: 'sandbox', fromTx: { txHash: hash } });
    // Each sees its own link afterwards, without routeId.
    expect((await get(`/partners/bridge/status?txHash=${hash}`, victim.apiKey)).json().status).toBe('PENDING');
    expect((await get(`/partners/bridge/status?txHash=${hash}`, thief.apiKey)).json().status).toBe('PENDING');
    const links = await app.services.db.query<{ id: string }>(
      'select id from bridge_route where tx_hash = ? order by id',
      [hash],
    );
    expect(links.map((l) => l.id).sort()).toEqual([thiefRoute, victimRoute].sort());
  });
});
