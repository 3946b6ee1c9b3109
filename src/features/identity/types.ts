import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar, UrlScalar } from './scalars.js';

/**
 * The bridge subgraph's `Chain` entity, referenced by key only: the gateway asks the bridge subgraph
 * for every other field. Composes on its own too, when the bridge subgraph is not part of the graph.
 */
@ObjectType('Chain')
@Directive('@key(fields: "caip2Id", resolvable: false)')
export class ChainReference {
  @Field({ description: 'CAIP-2 id of the chain.' })
  caip2Id!: string;
}

@ObjectType({ description: 'An address a name points to on some chain.' })
@Directive('@shareable')
export class MultichainAddress {
  @Field()
  address!: string;

  @Field({ description: 'CAIP-2 id of the chain the address is on.' })
  caip2Id!: string;

  @Field(() => String, { nullable: true, description: 'Name of the chain; null when cipgate does not know the chain.' })
  chainName!: string | null;

  @Field(() => String, {
    nullable: true,
    description: "Symbol of the chain's native token; null when cipgate does not know the chain.",
  })
  symbol!: string | null;

  @Field(() => ChainReference, {
    nullable: true,
    description: 'The chain, with the details the bridge subgraph holds; null when it holds none for this chain.',
  })
  chain!: ChainReference | null;
}

@ObjectType({ description: 'A text record of a name.' })
@Directive('@shareable')
export class TxtRecord {
  @Field()
  key!: string;

  @Field()
  value!: string;

  @Field({ description: 'How to read the value: `social`, `url`, `email`, or `text` for everything else.' })
  type!: string;
}

@ObjectType({ description: 'Position of a page in a paged list.' })
@Directive('@shareable')
export class Pagination {
  @Field(() => Int, { description: 'This page, from 1.' })
  page!: number;

  @Field(() => Int)
  perPage!: number;

  @Field(() => Int, { description: 'Matches over all pages; a lower bound when `totalIsExact` is false.' })
  total!: number;

  @Field({
    description:
      'False when a prefix matched more names than a search lists (500 per source): `total` then counts the listed ones, a lower bound, and later pages end there.',
  })
  totalIsExact!: boolean;

  @Field(() => Int, { description: '0 when there is no match.' })
  totalPages!: number;
}

@ObjectType({ description: 'A name found by an identity search, with what its naming service holds for it.' })
export class IdentityResult {
  @Field({ description: 'Full, normalized name, e.g. `alice.snow`, `alice.eth`.' })
  name!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Address the name resolves to on its own chain; null when the name is registered but points nowhere.',
  })
  ownerAddress!: string | null;

  @Field({ description: 'Naming service identifier.' })
  source!: string;

  @Field({ description: 'Provider identifier.' })
  provider!: string;

  @Field()
  providerName!: string;

  @Field({ description: 'CAIP-2 id of the chain on which the name lives.' })
  caip2Id!: string;

  @Field(() => UrlScalar, { nullable: true, description: 'Avatar location; null when the name has none.' })
  avatar!: string | null;

  @Field(() => UrlScalar, { description: 'Logo of the provider.' })
  logoURI!: string;

  @Field(() => UrlScalar, { description: 'Site of the provider.' })
  url!: string;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'Expiry; null when the name does not expire or the service does not say.',
  })
  expireAt!: Date | null;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'Registration time; null when the service does not keep it.',
  })
  registeredAt!: Date | null;

  @Field(() => [MultichainAddress])
  multichainAddresses!: MultichainAddress[];

  @Field(() => [TxtRecord])
  txtRecords!: TxtRecord[];
}

@ObjectType({ description: 'One page of identity search results.' })
export class IdentitySearchPage {
  @Field(() => [IdentityResult])
  results!: IdentityResult[];

  @Field(() => Pagination)
  pagination!: Pagination;

  @Field(() => [String], {
    description: 'Providers left out of this answer because they failed or did not answer in time (empty normally).',
  })
  unavailableProviders!: string[];
}

@ObjectType({ description: 'A naming service the identity search consults, and whether it can now.' })
export class NamingProviderStatus {
  @Field()
  provider!: string;

  @Field()
  source!: string;

  @Field()
  providerName!: string;

  @Field({ description: 'CAIP-2 id of the chain its names live on.' })
  caip2Id!: string;

  @Field(() => [String], { description: 'Name suffixes it owns, e.g. `.eth`.' })
  suffixes!: string[];

  @Field(() => UrlScalar)
  logoURI!: string;

  @Field(() => UrlScalar)
  url!: string;

  @Field({ description: 'Whether searches consult it.' })
  enabled!: boolean;

  @Field(() => String, { nullable: true, description: 'Why it is disabled; null when enabled.' })
  reason!: string | null;
}

@ObjectType({ description: 'The primary name of an EVM address on one chain (ENSIP-19), verified forward.' })
export class EvmPrimaryName {
  @Field({ description: 'The normalized name, e.g. `vitalik.eth`.' })
  name!: string;

  @Field({ description: 'The address, checksummed.' })
  address!: string;

  @Field(() => Int, { description: 'EVM chain id the primary name is for.' })
  chainId!: number;

  @Field({ description: 'Naming service whose record answered, e.g. `ens`, `basenames`.' })
  provider!: string;
}
