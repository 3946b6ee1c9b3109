import {
  AbiDecodingDataSizeTooSmallError,
  AbiDecodingZeroDataError,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
} from 'viem';

/**
 * Whether a failed read reached the chain and was answered "there is nothing here": the resolver
 * reverted (it does not implement the profile, e.g. an old resolver without `addr(bytes32,uint256)`),
 * the address holds no code, or it answered bytes that do not decode. Those are facts about the
 * name's configuration, so the caller treats them as a missing record; anything else (HTTP, timeout,
 * JSON-RPC failure) is an upstream problem and must not be mistaken for "no record". So is a failed
 * EIP-3668 lookup, even when it ends in a revert: the gateway was unreachable, or its answer was
 * refused by the resolver's callback (bad signature, expired proof), which says nothing about the name.
 */
export function isMissingRecordError(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false;
  // viem does not export the class; its errors carry their class name in `name`.
  if (err.walk((e) => e instanceof BaseError && e.name === 'OffchainLookupError') !== null) return false;
  return (
    err.walk(
      (e) =>
        e instanceof ContractFunctionRevertedError ||
        e instanceof ContractFunctionZeroDataError ||
        e instanceof AbiDecodingZeroDataError ||
        e instanceof AbiDecodingDataSizeTooSmallError,
    ) !== null
  );
}

/** Runs a resolver read, turning "the resolver has nothing for this" into null and rethrowing the rest. */
export async function orMissing<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (isMissingRecordError(err)) return null;
    throw err;
  }
}
