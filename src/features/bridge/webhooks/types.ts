import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { BridgeStatus } from '../types.js';

@ObjectType({ description: 'A webhook receiving bridge status changes.' })
export class Webhook {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'The https URL changes are POSTed to.' })
  url!: string;

  @Field({ description: 'ISO 8601.' })
  createdAt!: string;
}

@ObjectType({ description: 'A webhook just registered, with its signing secret: shown this once, never again.' })
export class WebhookRegistration extends Webhook {
  @Field({
    description:
      'HMAC-SHA256 key of the `x-cipgate-signature: t=<unix seconds>,v1=<hex>` header, computed over `<t>.<body>`.',
  })
  secret!: string;
}

@ObjectType({ description: 'What a webhook answered to a signed test event.' })
export class WebhookTest {
  @Field({ description: 'The receiver answered 2xx.' })
  delivered!: boolean;

  @Field(() => GraphQLSafeInt, { nullable: true, description: 'HTTP status of the answer; null without one.' })
  statusCode!: number | null;

  @Field(() => String, { nullable: true, description: 'Why it was not delivered.' })
  error!: string | null;

  @Field({ description: 'ISO 8601; also in the body: `{"type":"test","webhookId":…,"sentAt":…}`.' })
  sentAt!: string;
}

@ObjectType({ description: 'One status change sent (or being sent) to a webhook.' })
export class WebhookDelivery {
  @Field(() => ID, { description: 'Also sent as `x-cipgate-delivery`: the same change never has two ids.' })
  id!: string;

  @Field()
  txHash!: string;

  @Field(() => GraphQLSafeInt, { description: "The change's number within its transfer (1 = first status seen)." })
  sequence!: number;

  @Field({ description: 'pending (retried with backoff), delivered, or failed (gave up after 24 hours).' })
  state!: string;

  @Field(() => GraphQLSafeInt)
  attempts!: number;

  @Field(() => GraphQLSafeInt, { nullable: true, description: 'HTTP status of the last answer, if any.' })
  lastStatusCode!: number | null;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed.' })
  lastError!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601; when the next attempt is due while pending.' })
  nextAttemptAt!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601.' })
  deliveredAt!: string | null;

  @Field({ description: 'ISO 8601: when the change was seen.' })
  createdAt!: string;
}

@ObjectType({ description: 'A change of status (or substatus) of a followed bridge transfer.' })
export class BridgeStatusChange {
  @Field()
  txHash!: string;

  @Field(() => GraphQLSafeInt, { description: '1 for the first status seen, then one more per change.' })
  sequence!: number;

  @Field({ description: 'ISO 8601.' })
  occurredAt!: string;

  @Field(() => BridgeStatus)
  transfer!: BridgeStatus;
}
