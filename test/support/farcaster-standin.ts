import {
  FNAME_TRANSFERS,
  ID_REGISTRY_EVENTS,
  USER_DATA,
  VARUNSRIN_ETH_PROOF,
  VERIFICATIONS,
} from '../fixtures/farcaster/hub-fixtures.js';
import { type Standin, type StandinReply, startStandin } from './http-standin.js';

/**
 * A Farcaster hub's HTTP API and the fname registry on loopback, answering from the fixtures in
 * `test/fixtures/farcaster/` as Hubble and fnames.farcaster.xyz do: Hubble's "not found" is HTTP 400 with a
 * HubError (`errCode: "not_found"`), the registry's is 404 `{"error":"No transfer found"}`.
 */
export interface FarcasterStandins {
  hub: Standin;
  fnames: Standin;
  close(): Promise<void>;
}

const notFound: StandinReply = {
  status: 400,
  json: { errCode: 'not_found', presentable: false, name: 'HubError', message: 'NotFound' },
};

export async function startFarcasterStandins(): Promise<FarcasterStandins> {
  const [hub, fnames] = await Promise.all([startStandin(), startStandin()]);
  const proofs = [
    ...FNAME_TRANSFERS.map((t) => ({
      name: t.username,
      owner: t.owner,
      fid: t.to,
      timestamp: t.timestamp,
      type: 'USERNAME_TYPE_FNAME',
    })),
    VARUNSRIN_ETH_PROOF,
  ];

  hub.reply('/v1/userNameProofByName', ({ query }) => {
    const proof = proofs.find((p) => p.name === query.name);
    return proof ? { json: proof } : notFound;
  });
  hub.reply('/v1/userDataByFid', ({ query }) => {
    const messages = USER_DATA[Number(query.fid)] ?? [];
    if (query.user_data_type === undefined) return { json: { messages, nextPageToken: '' } };
    const one = messages.find((m) => m.data?.userDataBody?.type === query.user_data_type);
    return one ? { json: one } : notFound;
  });
  hub.reply('/v1/verificationsByFid', ({ query }) => ({
    json: { messages: VERIFICATIONS[Number(query.fid)] ?? [], nextPageToken: '' },
  }));
  hub.reply('/v1/onChainIdRegistryEventByAddress', ({ query }) => {
    const event = ID_REGISTRY_EVENTS.find((e) => e.idRegisterEventBody?.to === query.address?.toLowerCase());
    return event ? { json: event } : notFound;
  });
  hub.reply('/v1/onChainEventsByFid', ({ query }) => ({
    json: { events: ID_REGISTRY_EVENTS.filter((e) => e.fid === Number(query.fid)) },
  }));

  fnames.reply('/transfers/current', ({ query }) => {
    const transfer =
      query.name !== undefined
        ? FNAME_TRANSFERS.find((t) => t.username === query.name)
        : FNAME_TRANSFERS.find((t) => t.to === Number(query.fid));
    if (query.name === undefined && query.fid !== undefined && !/^\d+$/.test(query.fid)) {
      return { status: 400, json: { error: 'FID is not a number' } };
    }
    return transfer ? { json: { transfer } } : { status: 404, json: { error: 'No transfer found' } };
  });

  return { hub, fnames, close: async () => void (await Promise.all([hub.close(), fnames.close()])) };
}
