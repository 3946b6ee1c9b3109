import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { type RequestContext, requirePartner } from '../../platform/graphql/context.js';
import { Price } from '../../platform/graphql/credits-directive.js';
import { BridgeProviderInfo, BridgeQuoteInput, BridgeStatus, Chain, ChainTokens, Route } from './types.js';

@Resolver()
export class BridgeResolver {
  @Query(() => [Chain], {
    description: "Chains of the bridge catalogue, the spec's chains first. 1 credit; errors are free.",
  })
  @Price(1)
  async bridgeChains(@Ctx() ctx: RequestContext): Promise<Chain[]> {
    return ctx.services.bridge.chains(requirePartner(ctx).sandbox);
  }

  @Query(() => ChainTokens, {
    description: 'Tokens of a catalogue chain, native token first. 1 credit; errors are free.',
  })
  @Price(1)
  async bridgeTokens(
    @Ctx() ctx: RequestContext,
    @Arg('caip2Id', { description: 'CAIP-2 id of a chain listed by bridgeChains.' }) caip2Id: string,
  ): Promise<ChainTokens> {
    const { sandbox } = requirePartner(ctx);
    return { caip2Id, tokens: await ctx.services.bridge.tokens(caip2Id, sandbox) };
  }

  @Query(() => [Route], {
    description:
      'Routes of every enabled provider for the transfer, best first in the order asked (CHEAPEST: amount ' +
      'received net of costs; FASTEST: estimated time), at most maxRoutes (a sandbox partner gets ' +
      'sandbox routes only). No route: NOT_FOUND; every provider unavailable: UPSTREAM_UNAVAILABLE. ' +
      '2 credits; errors are free.',
  })
  @Price(2)
  async bridgeQuote(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => BridgeQuoteInput) input: BridgeQuoteInput,
  ): Promise<Route[]> {
    const partner = requirePartner(ctx);
    return ctx.services.bridge.quote(input, { partnerId: partner.id, sandbox: partner.sandbox });
  }

  @Query(() => BridgeStatus, {
    description:
      'Status of a transfer by its source transaction hash. Poll every 10 to 30 seconds until DONE or FAILED. ' +
      '1 credit; errors are free.',
  })
  @Price(1)
  async bridgeStatus(
    @Ctx() ctx: RequestContext,
    @Arg('txHash', { description: 'Source-chain transaction hash.' }) txHash: string,
    @Arg('bridge', () => String, {
      nullable: true,
      description:
        "Provider (`lifi`) or bridge (a route's `bridgeProvider`, e.g. `stargatev2`) name, for a faster lookup.",
    })
    bridge: string | null,
    @Arg('routeId', () => ID, {
      nullable: true,
      description:
        'The quoted route this transaction executes. Links the two for your later calls when the source ' +
        'chain cannot be read to link them automatically.',
    })
    routeId: string | null,
  ): Promise<BridgeStatus> {
    const partner = requirePartner(ctx);
    return ctx.services.bridge.status({ txHash, bridge, routeId }, { partnerId: partner.id, sandbox: partner.sandbox });
  }

  @Query(() => [BridgeProviderInfo], {
    description:
      'The bridge providers serving the caller (a sandbox partner: the sandbox) and why any is disabled. Free.',
  })
  @Price(0)
  bridgeProviders(@Ctx() ctx: RequestContext): BridgeProviderInfo[] {
    return ctx.services.bridge.providerStates(ctx.partner?.sandbox === true);
  }
}
