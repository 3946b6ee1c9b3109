import { Ctx, Query, Resolver } from 'type-graphql';
import { availableSeen } from '../../platform/credits/charging.js';
import { unauthenticated } from '../../platform/errors.js';
import { type RequestContext, requirePartner } from '../../platform/graphql/context.js';
import { Price } from '../../platform/graphql/credits-directive.js';
import { PartnerStats } from './partner-stats.js';
import { partnerStats } from './partners.js';

@Resolver()
export class StatsResolver {
  @Query(() => PartnerStats, { description: 'Credits and identity of the partner owning the x-api-key. Free.' })
  @Price(0)
  async stats(@Ctx() ctx: RequestContext): Promise<PartnerStats> {
    const partner = requirePartner(ctx);
    // Charges settle once their answers are delivered; a partner's next look at its balance includes them,
    // those this process has not written yet (leased credits, see ledger.ts) added to the row's figures.
    const { value: row, unwritten } = await ctx.services.ledger.readSettled(partner.id, () =>
      partnerStats(ctx.services.db, partner.id),
    );
    // A partner deleted while its key is cached is no longer a partner.
    if (!row) throw unauthenticated('The API key no longer belongs to a partner');
    availableSeen(ctx, partner.id, row.available);
    const { stats } = row;
    return { ...stats, creditBalance: stats.creditBalance - unwritten, creditUsage: stats.creditUsage + unwritten };
  }
}
