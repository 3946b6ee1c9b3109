import { Field, ObjectType } from 'type-graphql';
import type { MnsNetwork } from './registry/networks.js';

@ObjectType({ description: 'A sub-name directly under a name, and the address it resolves to.' })
export class SubName {
  @Field({ description: 'Full sub-name, e.g. pay.alice.snow.' })
  name!: string;

  @Field({ description: 'Address the sub-name resolves to.' })
  address!: string;
}

@ObjectType({ description: 'Where a name resolves: its owner (the target address) and resolver.' })
export class NameOwner {
  @Field({ description: 'Full, normalized name, e.g. alice.snow.' })
  name!: string;

  @Field({ description: 'CAIP-2 id of the network the answer comes from (mainnet when the name is on several).' })
  caip2Id!: string;

  @Field({ description: 'The address the name resolves to.' })
  owner!: string;

  @Field(() => String, { nullable: true, description: 'Resolver contract of the name, when the registry knows it.' })
  resolverAddress!: string | null;

  /** For the sub-name field resolver; not part of the schema. */
  network!: MnsNetwork;
}

@ObjectType({ description: 'The primary name of an address.' })
export class PrimaryName {
  @Field({ description: 'The address exactly as it was asked for.' })
  address!: string;

  @Field({ description: 'Primary name of the address.' })
  name!: string;

  @Field({ description: 'The address the primary name resolves to.' })
  owner!: string;

  @Field({ description: 'CAIP-2 id of the network the primary name is on.' })
  caip2Id!: string;
}

@ObjectType({ description: 'One text record of a name.' })
export class MetadataEntry {
  @Field()
  key!: string;

  @Field()
  value!: string;

  @Field({ description: 'social, url, email or text.' })
  type!: string;
}

@ObjectType({ description: 'The text records of a name.' })
export class NameMetadata {
  @Field()
  name!: string;

  @Field({ description: 'CAIP-2 id of the network the records come from.' })
  caip2Id!: string;

  @Field(() => [MetadataEntry])
  metadata!: MetadataEntry[];
}
