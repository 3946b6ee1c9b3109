/**
 * A loopback stand-in for an upstream MNS public API, speaking the spec's public interface
 * (/work/shared/spec/service-spec.md, "Public interface"; paths under /api/public) over a fixed set of
 * names, with the published client's optional `caip2Id`/`subIdentities` on address answers
 * (@snowballmoney/mns-sdk's types). With `chainAddresses`, it also answers other chains' CAIP-2 ids from
 * the names' multichain records, as a peer that implements that extension does; without, it refuses them
 * with a 400 as a spec-only service would.
 */
import { type Standin, type StandinReply, startStandin } from './http-standin.js';

export interface UpstreamName {
  name: string;
  /** Movement network reference: 126, 177 or 250. */
  network: string;
  owner: string;
  resolverAddress?: string | null;
  primary?: boolean;
  txtRecords?: { key: string; value: string }[];
  avatar?: string;
  multichainAddresses?: { caip2Id: string; address: string }[];
}

export interface MnsUpstreamStandin extends Standin {
  /** Base URL of its public interface (ends in /api/public). */
  readonly publicUrl: string;
}

const PREFIX = '/api/public';
const NETWORKS: Record<string, string[]> = {
  '126': ['126'],
  mainnet: ['126'],
  '177': ['177'],
  testnet: ['177'],
  '250': ['250'],
  '*': ['126', '177', '250'],
};

const fullName = (n: string) => {
  const lower = n.trim().toLowerCase();
  return lower.endsWith('.snow') ? lower : `${lower}.snow`;
};
const addressKey = (a: string) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`;
const bad = (message: string): StandinReply => ({ status: 400, json: { message } });
const notFound = (message: string): StandinReply => ({ status: 404, json: { message } });

export async function startMnsUpstream(
  names: readonly UpstreamName[],
  options: { chainAddresses?: boolean } = {},
): Promise<MnsUpstreamStandin> {
  const standin = await startStandin();
  const find = (name: string, networks: string[]) => {
    for (const network of networks) {
      const hit = names.find((n) => n.name === fullName(name) && n.network === network);
      if (hit) return hit;
    }
    return undefined;
  };
  /** Movement networks of a CAIP-2 id, or the other chain it names, or null when it is malformed. */
  const target = (caip2Id: unknown): { networks: string[] } | { chain: string } | null => {
    const m = /^([-a-z0-9]{3,32}):([-_a-zA-Z0-9]{1,32}|\*)$/.exec(String(caip2Id ?? ''));
    if (!m) return null;
    if (m[1] === 'move-mvmt') {
      const networks = NETWORKS[m[2] as string];
      return networks ? { networks } : null;
    }
    return options.chainAddresses ? { chain: String(caip2Id) } : null;
  };
  const resolve = (name: string, t: { networks: string[] } | { chain: string }) => {
    if ('networks' in t) {
      const hit = find(name, t.networks);
      return hit ? { owner: hit.owner, resolverAddress: hit.resolverAddress ?? null, hit } : null;
    }
    const hit = find(name, NETWORKS['*'] as string[]);
    const address = hit?.multichainAddresses?.find((a) => a.caip2Id === t.chain)?.address;
    return hit && address ? { owner: hit.owner, resolverAddress: address, hit } : null;
  };
  const primary = (address: string, networks: string[]) => {
    for (const network of networks) {
      const hit = names.find((n) => n.primary && n.network === network && addressKey(n.owner) === addressKey(address));
      if (hit) return hit;
    }
    return undefined;
  };

  standin.reply(`${PREFIX}/identity/address`, ({ query }) => {
    const t = target(query.caip2Id);
    if (!t) return bad(`Invalid caip2Id ${query.caip2Id}`);
    const answer = resolve(query.name ?? '', t);
    if (!answer) return notFound(`Name ${query.name} not found`);
    const subIdentities = names
      .filter((n) => n.network === answer.hit.network && n.name.endsWith(`.${answer.hit.name}`))
      .filter((n) => n.name.split('.').length === answer.hit.name.split('.').length + 1)
      .map((n) => ({ name: n.name, address: n.owner }));
    return {
      json: {
        owner: answer.owner,
        resolverAddress: answer.resolverAddress,
        caip2Id: String(query.caip2Id),
        subIdentities,
      },
    };
  });
  standin.reply(`${PREFIX}/public-identity/addresses`, ({ body }) => {
    const b = body as { caip2Id?: string; names?: string[] };
    const t = target(b?.caip2Id);
    if (!t || !Array.isArray(b.names)) return bad('Invalid body');
    if (b.names.length > 1000) return bad('At most 1000 names');
    return {
      json: {
        data: b.names.map((n) => {
          const answer = resolve(n, t);
          return { owner: answer?.owner ?? null, resolverAddress: answer?.resolverAddress ?? null };
        }),
      },
    };
  });
  standin.reply(`${PREFIX}/identity/name`, ({ query }) => {
    const t = target(query.caip2Id);
    if (!t || !('networks' in t)) return bad(`Invalid caip2Id ${query.caip2Id}`);
    const hit = primary(query.address ?? '', t.networks);
    return hit ? { json: { name: hit.name, owner: hit.owner } } : notFound('No primary name');
  });
  standin.reply(`${PREFIX}/identity/names`, ({ body }) => {
    const b = body as { caip2Id?: string; addresses?: string[] };
    const t = target(b?.caip2Id ?? 'move-mvmt:*');
    if (!t || !('networks' in t) || !Array.isArray(b.addresses)) return bad('Invalid body');
    if (b.addresses.length > 1000) return bad('At most 1000 addresses');
    const data: Record<string, { name: string; owner: string }> = {};
    for (const address of b.addresses) {
      const hit = primary(address, t.networks);
      if (hit) data[address] = { name: hit.name, owner: hit.owner };
    }
    return { json: { data } };
  });
  // The stand-in routes by exact path: one metadata path per name the upstream knows.
  for (const name of new Set(names.map((n) => n.name))) {
    standin.reply(`${PREFIX}/identity/metadata/${name}`, () => {
      const hit = find(name, NETWORKS['*'] as string[]) as UpstreamName;
      const metadata = [...(hit.txtRecords ?? [])];
      if (hit.avatar) metadata.push({ key: 'avatar', value: hit.avatar });
      return { json: { metadata } };
    });
  }
  return Object.assign(standin, { publicUrl: `${standin.url}${PREFIX}` });
}
