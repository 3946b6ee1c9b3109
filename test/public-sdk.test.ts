import { SnowstormError, SnowstormSDK } from '@snowballmoney/mns-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, ALICE_TESTNET, BOB, importNamesFile, NAMES_FILE, PAY_ALICE, RESOLVER } from './fixtures/mns/index.js';
import { startTestApp, type TestApp } from './support/app.js';

/** The published client of the public interface, against a really listening server. */
describe('@snowballmoney/mns-sdk against cipgate', () => {
  let app: TestApp;
  let sdk: SnowstormSDK;
  beforeAll(async () => {
    app = await startTestApp();
    expect((await importNamesFile(app.database.url, NAMES_FILE)).code).toBe(0);
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.http.server.address() as { port: number };
    sdk = new SnowstormSDK({ baseUrl: `http://127.0.0.1:${port}/api/public/`, timeout: 5000 });
  });
  afterAll(() => app.stop());

  it('getIdentityAddress', async () => {
    expect(await sdk.getIdentityAddress('alice.snow', 'move-mvmt:mainnet')).toEqual({
      owner: ALICE,
      resolverAddress: RESOLVER,
      caip2Id: 'move-mvmt:126',
      subIdentities: [{ name: 'pay.alice.snow', address: PAY_ALICE }],
    });
  });

  it('getIdentityName', async () => {
    expect(await sdk.getIdentityName(ALICE_TESTNET, 'move-mvmt:testnet')).toEqual({
      name: 'alice.snow',
      owner: ALICE_TESTNET,
    });
  });

  it('getIdentityMetadata', async () => {
    const { metadata } = await sdk.getIdentityMetadata('alice.snow');
    expect(metadata).toContainEqual({ key: 'com.twitter', value: 'alice' });
    expect(metadata).toHaveLength(5);
  });

  it('getIdentityNames, with and without caip2Id', async () => {
    expect(await sdk.getIdentityNames({ addresses: [ALICE, BOB, '0x1'], caip2Id: 'move-mvmt:*' })).toEqual({
      data: { [ALICE]: { name: 'alice.snow', owner: ALICE }, [BOB]: { name: 'bob.snow', owner: BOB } },
    });
    expect(await sdk.getIdentityNames({ addresses: [BOB] })).toEqual({
      data: { [BOB]: { name: 'bob.snow', owner: BOB } },
    });
  });

  it('getIdentityAddresses', async () => {
    expect(await sdk.getIdentityAddresses({ names: ['alice.snow', 'nobody.snow'], caip2Id: 'move-mvmt:126' })).toEqual({
      data: [
        { owner: ALICE, resolverAddress: RESOLVER },
        { owner: null, resolverAddress: null },
      ],
    });
  });

  it('surfaces the HTTP status of a failure as SnowstormError.status', async () => {
    const notFound = await sdk.getIdentityName('0xdead', 'move-mvmt:126').catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(SnowstormError);
    expect((notFound as SnowstormError).status).toBe(404);
    const badChain = await sdk.getIdentityAddress('alice', 'move-mvmt:5').catch((e: unknown) => e);
    expect((badChain as SnowstormError).status).toBe(400);
  });
});
