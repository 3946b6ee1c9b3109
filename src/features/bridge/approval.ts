/**
 * What a wallet needs besides the route's own transaction: an ERC-20 source must first allow the
 * bridge contract to pull `fromAmount`, or the route's transaction reverts on first use.
 */
import * as AbiFunction from 'ox/AbiFunction';
import * as Address from 'ox/Address';
import { NATIVE_EVM } from '../../platform/chains/registry.js';
import type { ProviderRoute, TransactionData } from './providers/types.js';

/** LI.FI also writes the native token as the 0xEeee… placeholder. */
export function isNativeEvm(token: string): boolean {
  const t = token.toLowerCase();
  return t === NATIVE_EVM || t === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
}

/** ERC-20 `approve`, the one call of the standard cipgate builds or checks. */
export const ERC20_APPROVE = AbiFunction.from({
  type: 'function',
  name: 'approve',
  stateMutability: 'nonpayable',
  inputs: [
    { name: 'spender', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  outputs: [{ type: 'bool' }],
});

/** `approve(spender, amount)` on `token`, sent by `from`, in the shape of `transactionData`. */
export function approvalTransaction(
  token: string,
  spender: string,
  amount: bigint,
  from: string,
  chainId: number,
): TransactionData {
  return {
    from,
    to: Address.checksum(token.toLowerCase()),
    data: AbiFunction.encodeData(ERC20_APPROVE, [Address.checksum(spender.toLowerCase()), amount]),
    value: '0',
    gasLimit: '0',
    gasPrice: '0',
    chainId,
  };
}

/**
 * The route with its approval filled in: for an EVM ERC-20 source with a spender, the approval
 * transaction unless the provider already built one or reported the allowance sufficient
 * (`approvalTransaction: undefined` with `tracking.allowanceSufficient`). Native sources need none.
 */
export function withApproval(route: ProviderRoute): ProviderRoute {
  if (!route.fromChain.startsWith('eip155:') || isNativeEvm(route.fromToken)) {
    const { approvalAddress: _a, approvalTransaction: _t, ...rest } = route;
    return rest;
  }
  const spender = route.approvalAddress;
  if (!spender || !Address.validate(spender, { strict: false })) return route;
  if (route.approvalTransaction || route.tracking?.allowanceSufficient === true) return route;
  return {
    ...route,
    approvalTransaction: approvalTransaction(
      route.fromToken,
      spender,
      BigInt(route.fromAmount),
      route.transactionData.from,
      route.transactionData.chainId,
    ),
  };
}
