import type { BridgeStatusQuery, BridgeStatusQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';

type Data = BridgeStatusQuery;

/**
 * GET /partners/bridge/status?txHash=&bridge=: status of a transfer. 1 credit. `routeId` is a cipgate
 * extension (optional): it links the transaction to the quoted route when the source chain cannot
 * be read to link them.
 */
export const partnersBridgeStatus = defineRoute<Data, BridgeStatusQueryVariables>({
  method: 'GET',
  url: '/partners/bridge/status',
  label: 'GET /partners/bridge/status',
  input: {
    from: 'query',
    constraints: { txHash: { minLength: 1, maxLength: 200 }, bridge: { maxLength: 64 }, routeId: { maxLength: 64 } },
  },
  errors: partnerErrors,
  body: 'bridgeStatus',
  operation: /* GraphQL */ `
    query BridgeStatus($txHash: String!, $bridge: String, $routeId: ID) {
      bridgeStatus(txHash: $txHash, bridge: $bridge, routeId: $routeId) {
        status bridge aggregator substatus substatusMessage progress message
        fromTx { txHash txLink chainId gasUsed gasPrice timestamp }
        toTx { txHash txLink chainId gasUsed gasPrice timestamp }
      }
    }
  `,
  respond: ({ bridgeStatus: s }) => ({
    ...s,
    // The spec's answer always has a toTx object: clients read its fields without checking. Before the
    // destination transaction exists it is an empty one.
    toTx: s.toTx ?? { txHash: '', txLink: '', chainId: 0, gasUsed: '0', gasPrice: '0', timestamp: 0 },
  }),
});
