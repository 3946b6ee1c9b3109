import { Connection, Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SnsFixtures } from '../../../../../test/fixtures/sns/sns-fixtures.js';
import { type SolanaRpcStandin, startSolanaRpcStandin } from '../../../../../test/support/solana-rpc-standin.js';
import { getDomainKey } from './get-domain-key.js';
import { reverseLookup } from './reverse-lookup.js';

let rpc: SolanaRpcStandin;
let connection: Connection;

beforeAll(async () => {
  rpc = await startSolanaRpcStandin();
  connection = new Connection(rpc.url, { httpAgent: false });
  const sns = new SnsFixtures(rpc);
  const owner = Keypair.generate().publicKey;
  sns.subdomain(sns.domain('bonfida', owner), 'dex', owner);
});

afterAll(() => rpc.close());

it('names a domain account and a subdomain account (keyed under its parent)', async () => {
  const domain = getDomainKey('bonfida.sol');
  const sub = getDomainKey('dex.bonfida.sol');
  expect(await reverseLookup(connection, { domainKey: domain.pubkey })).toBe('bonfida');
  expect(await reverseLookup(connection, { domainKey: sub.pubkey, parent: sub.parent })).toBe('dex');
  // Without the parent the subdomain's reverse account is a different, empty address.
  expect(await reverseLookup(connection, { domainKey: sub.pubkey })).toBeNull();
});
