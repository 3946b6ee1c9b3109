export * from './constants.js';
export {
  decodeNameRegistry,
  decodeReverseName,
  MalformedAccountError,
  type NameRegistry,
} from './decodeNameRegistry.js';
export { type DecodeRecordV1Parameters, decodeRecordV1 } from './decodeRecordV1.js';
export { getAccounts } from './getAccounts.js';
export { getDomainKey, type SnsDomainKey } from './getDomainKey.js';
export { getHashedName } from './getHashedName.js';
export { type GetNameAccountKeyParameters, getNameAccountKey } from './getNameAccountKey.js';
export { getPrimaryDomainKey } from './getPrimaryDomainKey.js';
export { type GetPrimaryNameParameters, getPrimaryName, type PrimaryName } from './getPrimaryName.js';
export { getRecordKey, SNS_RECORDS, type SnsRecord } from './getRecordKey.js';
export { getReverseKey } from './getReverseKey.js';
export { type GetSnsDomainParameters, getSnsDomain, type SnsDomain } from './getSnsDomain.js';
export { getTokenizationKeys, isActiveNftRecord } from './getTokenizationKeys.js';
export { type GetTokenizedHolderParameters, getTokenizedHolder } from './getTokenizedHolder.js';
export { type ParsedSnsName, parseSnsName } from './parseSnsName.js';
export { createSnsProvider, DEFAULT_SNS_TIMEOUT_MS, SNS_PROVIDER_INFO, type SnsProviderOptions } from './provider.js';
export { type ReverseLookupParameters, reverseLookup } from './reverseLookup.js';
