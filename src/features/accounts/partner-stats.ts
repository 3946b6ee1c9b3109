import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'The calling partner account and its credits.' })
export class PartnerStats {
  @Field({ description: 'Partner account e-mail.' })
  email!: string;

  @Field({ description: 'Partner account name.' })
  name!: string;

  @Field(() => GraphQLSafeInt, { description: 'Credits remaining.' })
  creditBalance!: number;

  @Field(() => GraphQLSafeInt, { description: 'Credits consumed so far.' })
  creditUsage!: number;
}
