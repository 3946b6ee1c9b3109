import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType, registerEnumType } from 'type-graphql';

export enum UsageGranularity {
  day = 'day',
  hour = 'hour',
}
registerEnumType(UsageGranularity, { name: 'UsageGranularity', description: 'Length of one usage period (UTC).' });

@ObjectType({ description: 'Credits charged for one operation in one period.' })
export class UsagePeriod {
  @Field({ description: 'Start of the period (UTC), ISO 8601.' })
  period!: string;

  @Field({ description: 'The charged operation (GraphQL root field), e.g. identitySearch.' })
  operation!: string;

  @Field(() => GraphQLSafeInt, { description: 'Credits charged.' })
  credits!: number;

  @Field(() => GraphQLSafeInt, { description: 'Charged calls.' })
  calls!: number;
}

@ObjectType({ description: "The calling partner's credit usage in a time range, from its ledger." })
export class PartnerUsage {
  @Field({ description: 'Start of the range (inclusive), ISO 8601.' })
  from!: string;

  @Field({ description: 'End of the range (exclusive), ISO 8601.' })
  to!: string;

  @Field(() => UsageGranularity)
  granularity!: UsageGranularity;

  @Field(() => GraphQLSafeInt, { description: 'Credits charged in the range.' })
  totalCredits!: number;

  @Field(() => [UsagePeriod], { description: 'Per period and operation; periods without charges are left out.' })
  periods!: UsagePeriod[];
}

@ObjectType({ description: "One of the calling partner's API keys (never the secret)." })
export class ApiKeyInfo {
  @Field({ description: 'Public prefix (cgk_xxxxxxxx): what key:revoke takes.' })
  prefix!: string;

  @Field(() => String, { nullable: true })
  label!: string | null;

  @Field({ description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => String, { nullable: true, description: 'ISO 8601, to about a minute; null if never used.' })
  lastUsedAt!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601; null while the key works.' })
  revokedAt!: string | null;
}
