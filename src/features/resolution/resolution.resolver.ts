import { Arg, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { notFound } from '../../platform/errors.js';
import type { RequestContext } from '../../platform/graphql/context.js';
import { Price } from '../../platform/graphql/credits-directive.js';
import { addressArg, batchArg, type ChainTarget, chainTargetArg, nameArg, networksArg } from './inputs.js';
import { type ResolutionLoaders, resolutionLoaders } from './loaders.js';
import { caip2IdOf } from './registry/networks.js';
import type { SourceName, SourcePrimaryName } from './sources/index.js';
import { type MetadataEntry, NameMetadata, NameOwner, PrimaryName, SubName } from './types.js';

const toOwner = (row: SourceName): NameOwner =>
  Object.assign(new NameOwner(), {
    name: row.name,
    caip2Id: caip2IdOf(row.network),
    owner: row.owner,
    resolverAddress: row.resolverAddress,
    network: row.network,
  });

const toPrimary = (address: string, row: SourcePrimaryName): PrimaryName => ({
  address,
  name: row.name,
  owner: row.owner,
  caip2Id: caip2IdOf(row.network),
});

/**
 * Where `name` resolves for `target`: on Movement networks its target (first network first); on another
 * chain its address there, from the name's multichain records, with `owner` still its Movement target.
 */
async function resolveName(loaders: ResolutionLoaders, target: ChainTarget, name: string): Promise<NameOwner | null> {
  if (target.networks) {
    const row = await loaders.names.first(target.networks, name);
    return row ? toOwner(row) : null;
  }
  const found = await loaders.chainAddresses.load(target.chain, name);
  if (!found?.address) return null;
  return Object.assign(new NameOwner(), {
    name,
    caip2Id: target.chain,
    owner: found.owner,
    resolverAddress: found.address,
    network: found.network,
  });
}

/**
 * Public name resolution over the MNS sources (local registry, upstream API, chain). Free. Every lookup goes through the request's
 * DataLoaders, so a batch of any size (and any number of aliased fields) costs one query per network.
 */
@Resolver()
export class ResolutionResolver {
  @Query(() => NameOwner, {
    nullable: true,
    description:
      "The address a name resolves to. A bare label means <label>.snow; caip2Id is move-mvmt:126|177|250|mainnet|testnet|*, or another chain (eip155:1, solana:…) to get the name's address there in resolverAddress. NOT_FOUND when the name is not registered, has expired, or has no address on that chain.",
  })
  @Price(0)
  async nameOwner(
    @Arg('name') name: string,
    @Arg('caip2Id') caip2Id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<NameOwner> {
    const target = chainTargetArg(caip2Id);
    const normalized = nameArg(name);
    const owner = await resolveName(resolutionLoaders(ctx), target, normalized);
    if (!owner) {
      throw notFound(
        target.chain ? `Name ${normalized} has no address on ${caip2Id}` : `Name ${normalized} not found on ${caip2Id}`,
      );
    }
    return owner;
  }

  @Query(() => [NameOwner], {
    nullable: 'items',
    description: `Owners of up to 1000 names, in input order; null where a name is not registered or has expired.`,
  })
  @Price(0)
  async nameOwners(
    @Arg('names', () => [String]) names: string[],
    @Arg('caip2Id') caip2Id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<(NameOwner | null)[]> {
    const target = chainTargetArg(caip2Id);
    const normalized = batchArg(names, 'names').map((n, i) => nameArg(n, 'names', i));
    const loaders = resolutionLoaders(ctx);
    if (target.networks) {
      const rows = await loaders.names.firstOfEach(target.networks, normalized);
      return rows.map((row) => (row ? toOwner(row) : null));
    }
    return Promise.all(normalized.map((n) => resolveName(loaders, target, n)));
  }

  @Query(() => PrimaryName, {
    nullable: true,
    description:
      'The primary name of an address (matched case-insensitively, leading zeros optional). NOT_FOUND when it has none.',
  })
  @Price(0)
  async primaryName(
    @Arg('address') address: string,
    @Arg('caip2Id') caip2Id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<PrimaryName> {
    const networks = networksArg(caip2Id);
    const row = await resolutionLoaders(ctx).primaryNames.first(networks, addressArg(address));
    if (!row) throw notFound(`No primary name for ${address} on ${caip2Id}`);
    return toPrimary(address, row);
  }

  @Query(() => [PrimaryName], {
    description:
      'Primary names of up to 1000 addresses, each answer carrying the address exactly as asked; addresses without a primary name are left out. No caip2Id means every network.',
  })
  @Price(0)
  async primaryNames(
    @Arg('addresses', () => [String]) addresses: string[],
    @Arg('caip2Id', () => String, { nullable: true }) caip2Id: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<PrimaryName[]> {
    const networks = networksArg(caip2Id);
    const keys = batchArg(addresses, 'addresses').map((a, i) => addressArg(a, 'addresses', i));
    const rows = await resolutionLoaders(ctx).primaryNames.firstOfEach(networks, keys);
    const found: PrimaryName[] = [];
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (row) found.push(toPrimary(addresses[i] as string, row));
    }
    return found;
  }

  @Query(() => NameMetadata, {
    nullable: true,
    description:
      'Text records of a name (its avatar included as an "avatar" record). No caip2Id means every network, mainnet first. NOT_FOUND when the name is not registered or has expired.',
  })
  @Price(0)
  async nameMetadata(
    @Arg('name') name: string,
    @Arg('caip2Id', () => String, { nullable: true }) caip2Id: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<NameMetadata> {
    const networks = networksArg(caip2Id);
    const normalized = nameArg(name);
    const loaders = resolutionLoaders(ctx);
    const row = await loaders.names.first(networks, normalized);
    if (!row) throw notFound(`Name ${normalized} not found`);
    const records = row.records ?? (await loaders.records.load(row.network, row.name));
    if (!records) throw notFound(`Name ${normalized} not found`);
    const metadata: MetadataEntry[] = records.txtRecords.map((r) => ({ key: r.key, value: r.value, type: r.type }));
    // MNS keeps the avatar beside the text records; ENS-minded clients look for it among them.
    if (records.avatar && !metadata.some((m) => m.key === 'avatar'))
      metadata.push({ key: 'avatar', value: records.avatar, type: 'url' });
    return { name: row.name, caip2Id: caip2IdOf(row.network), metadata };
  }
}

@Resolver(() => NameOwner)
export class NameOwnerResolver {
  @FieldResolver(() => [SubName], {
    description: 'Live sub-names directly under the name on the same network, by name (at most 100).',
  })
  async subNames(@Root() owner: NameOwner, @Ctx() ctx: RequestContext): Promise<SubName[]> {
    const subs = await resolutionLoaders(ctx).subNames.load(owner.network, owner.name);
    return subs.map((s) => ({ name: s.name, address: s.owner }));
  }
}
