import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ALICE, BOB, EXPIRED_OWNER } from '../../../../test/fixtures/mns/index.js';
import { QUOTED_MAX } from '../../../platform/errors.js';
import { useNamesApp } from '../names-app.test-helper.js';

type Case = [label: string, request: InjectOptions, status: number, message?: RegExp];

const qs = (params: Record<string, string>) => new URLSearchParams(params).toString();
const address = (params: Record<string, string>) => ({
  method: 'GET' as const,
  url: `/api/public/identity/address?${qs(params)}`,
});
const name = (params: Record<string, string>) => ({
  method: 'GET' as const,
  url: `/api/public/identity/name?${qs(params)}`,
});
const names = (payload: object | string) => ({ method: 'POST' as const, url: '/api/public/identity/names', payload });
const addresses = (payload: object) => ({ method: 'POST' as const, url: '/api/public/identity/addresses', payload });
const specAddresses = (payload: object) => ({
  method: 'POST' as const,
  url: '/api/public/public-identity/addresses',
  payload,
});
const metadata = (n: string) => ({ method: 'GET' as const, url: `/api/public/identity/metadata/${n}` });

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const many = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));

const CASES: Case[] = [
  // CAIP-2 ids
  ['missing caip2Id', address({ name: 'alice' }), 400, /caip2Id/],
  ['wildcard of another namespace', address({ name: 'alice', caip2Id: 'eip155:*' }), 400, /move-mvmt/],
  ['other namespace for a reverse lookup', name({ address: ALICE, caip2Id: 'eip155:1' }), 400, /move-mvmt/],
  ['namespace without a reference', address({ name: 'alice', caip2Id: 'eip155' }), 400, /CAIP-2/],
  ['malformed caip2Id', address({ name: 'alice', caip2Id: 'move-mvmt' }), 400, /CAIP-2/],
  ['empty reference', address({ name: 'alice', caip2Id: 'move-mvmt:' }), 400, /CAIP-2/],
  ['unknown Movement network', address({ name: 'alice', caip2Id: 'move-mvmt:5' }), 400, /126.*177/],
  [
    'a reference named like an Object property',
    name({ address: ALICE, caip2Id: 'move-mvmt:constructor' }),
    400,
    /126.*177/,
  ],
  ['partial wildcard', address({ name: 'alice', caip2Id: 'move-mvmt:1*' }), 400],
  ['empty caip2Id', name({ address: ALICE, caip2Id: '' }), 400],
  ['bad caip2Id in a batch', names({ caip2Id: 'solana:mainnet-beta', addresses: [ALICE] }), 400, /move-mvmt/],
  ['bad caip2Id in a name batch', addresses({ caip2Id: 'move-mvmt:abc', names: ['alice'] }), 400],
  // names
  ['missing name', address({ caip2Id: 'move-mvmt:126' }), 400, /name/],
  ['empty name', address({ name: '', caip2Id: 'move-mvmt:126' }), 400],
  ['name with a space', address({ name: 'al ice', caip2Id: 'move-mvmt:126' }), 400, /Invalid name/],
  ['empty label', address({ name: 'pay..alice', caip2Id: 'move-mvmt:126' }), 400, /empty label/],
  ['suffix alone', address({ name: '.snow', caip2Id: 'move-mvmt:126' }), 400],
  ['name given twice', { method: 'GET', url: '/api/public/identity/address?name=a&name=b&caip2Id=move-mvmt:126' }, 400],
  ['invalid name in metadata', metadata('al%20ice'), 400, /Invalid name/],
  ['invalid name in a batch', addresses({ caip2Id: 'move-mvmt:126', names: ['alice', 'a/b'] }), 400, /names\[1\]|a\/b/],
  ['non-string name in a batch', addresses({ caip2Id: 'move-mvmt:126', names: [{}] }), 400],
  // addresses
  ['missing address', name({ caip2Id: 'move-mvmt:126' }), 400, /address/],
  ['not hex', name({ address: 'alice', caip2Id: 'move-mvmt:126' }), 400, /0x followed by 1 to 64 hex digits/],
  ['0x alone', name({ address: '0x', caip2Id: 'move-mvmt:126' }), 400],
  ['65 hex digits', name({ address: `0x${'1'.repeat(65)}`, caip2Id: 'move-mvmt:126' }), 400],
  ['no 0x prefix', name({ address: 'a'.repeat(64), caip2Id: 'move-mvmt:126' }), 400],
  ['invalid address in a batch', names({ caip2Id: 'move-mvmt:126', addresses: [ALICE, '0xzz'] }), 400, /0xzz/],
  ['empty address in a batch', names({ caip2Id: 'move-mvmt:126', addresses: [ALICE, ''] }), 400, /Invalid address ""/],
  ['non-string address in a batch', names({ caip2Id: 'move-mvmt:126', addresses: [ALICE, 7] }), 400],
  // No length bound in the schema: the resolver's message quotes only the start of a long value.
  [
    'address of 100 000 characters in a batch',
    names({ caip2Id: 'move-mvmt:126', addresses: [ALICE, `0x${'1'.repeat(99_998)}`] }),
    400,
    new RegExp(`^Invalid address "0x1{${QUOTED_MAX - 2}}…": expected 0x followed by 1 to 64 hex digits$`),
  ],
  // bodies
  ['missing addresses', names({ caip2Id: 'move-mvmt:126' }), 400, /addresses/],
  ['addresses not a list', names({ caip2Id: 'move-mvmt:126', addresses: { a: 1 } }), 400],
  ['body a list', names([ALICE]), 400],
  ['missing names', addresses({ caip2Id: 'move-mvmt:126' }), 400, /names/],
  ['missing caip2Id in a name batch', specAddresses({ names: ['alice'] }), 400, /caip2Id/],
  [
    'malformed JSON',
    {
      method: 'POST',
      url: '/api/public/identity/names',
      payload: '{"addresses": [',
      headers: { 'content-type': 'application/json' },
    },
    400,
  ],
  ['1001 addresses', names({ addresses: many(1001, hex) }), 400, /1000/],
  ['1001 names', addresses({ caip2Id: 'move-mvmt:126', names: many(1001, (i) => `n${i}`) }), 400, /1000/],
  [
    '1001 names on the spec path',
    specAddresses({ caip2Id: 'move-mvmt:126', names: many(1001, (i) => `n${i}`) }),
    400,
    /1000/,
  ],
  // not found
  ['unknown name', address({ name: 'nobody', caip2Id: 'move-mvmt:126' }), 404, /nobody\.snow/],
  ['expired name', address({ name: 'old', caip2Id: 'move-mvmt:126' }), 404],
  ['name on the other network', address({ name: 'bob', caip2Id: 'move-mvmt:126' }), 404],
  [
    'no address on the chain asked',
    address({ name: 'alice', caip2Id: 'eip155:8453' }),
    404,
    /no address on eip155:8453/,
  ],
  ['chain address of an unknown name', address({ name: 'nobody', caip2Id: 'eip155:1' }), 404],
  ['address without a primary name', name({ address: hex(0xdead), caip2Id: 'move-mvmt:*' }), 404, /primary name/],
  ['address whose primary name expired', name({ address: EXPIRED_OWNER, caip2Id: 'move-mvmt:126' }), 404],
  ['primary name on the other network', name({ address: BOB, caip2Id: 'move-mvmt:mainnet' }), 404],
  ['unknown name metadata', metadata('nobody.snow'), 404],
  ['expired name metadata', metadata('old.snow'), 404],
  ['unknown path', { method: 'GET', url: '/api/public/identity/nothing' }, 404],
];

describe('/api/public/identity/* bad input', () => {
  const app = useNamesApp();

  it.each(CASES)('%s: the documented status and {message}', async (_label, request, status, message) => {
    const res = await app.http.inject(request);
    expect(res.statusCode).toBe(status);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['message']);
    expect(typeof body.message).toBe('string');
    if (message) expect(body.message).toMatch(message);
  });

  it('accepts exactly 1000 items per batch', async () => {
    expect((await app.http.inject(names({ addresses: many(1000, hex) }))).statusCode).toBe(200);
    const res = await app.http.inject(addresses({ caip2Id: 'move-mvmt:*', names: many(1000, (i) => `n${i}`) }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toHaveLength(1000);
  });
});
