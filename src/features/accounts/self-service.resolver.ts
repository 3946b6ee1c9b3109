import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { type RequestContext, requirePartner } from '../../platform/graphql/context.js';
import { Price } from '../../platform/graphql/credits-directive.js';
import { listApiKeys } from './key-usage.js';
import { ApiKeyInfo, PartnerUsage, UsageGranularity } from './self-service.types.js';
import { partnerUsage, usageRange } from './usage.js';

@Resolver()
export class SelfServiceResolver {
  @Query(() => PartnerUsage, {
    description:
      'Credits charged to the partner owning the x-api-key, per period and operation. `to` defaults to now, `from` to 30 days (day) or 48 hours (hour) before it; at most 366 days by day, 31 by hour. Free.',
  })
  @Price(0)
  async usage(
    @Ctx() ctx: RequestContext,
    @Arg('from', () => String, { nullable: true, description: 'ISO 8601 date or date-time (inclusive).' })
    from?: string | null,
    @Arg('to', () => String, { nullable: true, description: 'ISO 8601 date or date-time (exclusive).' })
    to?: string | null,
    @Arg('granularity', () => UsageGranularity, { defaultValue: UsageGranularity.day })
    granularity: UsageGranularity = UsageGranularity.day,
  ): Promise<PartnerUsage> {
    const partner = requirePartner(ctx);
    const range = usageRange({ from, to, granularity });
    // Charges settle once their answers are delivered; the partner's own last answers are included.
    await ctx.services.ledger.whenSettled(partner.id);
    return (await partnerUsage(ctx.services.db, partner.id, range)) as PartnerUsage;
  }

  @Query(() => [ApiKeyInfo], { description: 'The API keys of the partner owning the x-api-key, oldest first. Free.' })
  @Price(0)
  async apiKeys(@Ctx() ctx: RequestContext): Promise<ApiKeyInfo[]> {
    const partner = requirePartner(ctx);
    return listApiKeys(ctx.services.db, partner.id);
  }
}
