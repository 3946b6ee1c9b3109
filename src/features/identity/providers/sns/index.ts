export * from './constants.js';
export {
  decodeNameRegistry,
  decodeReverseName,
  MalformedAccountError,
  type NameRegistry,
} from './decode-name-registry.js';
export { type DecodeRecordV1Parameters, decodeRecordV1 } from './decode-record-v1.js';
export { type DecodeRecordV2Parameters, decodeRecordV2, type RecordV2 } from './decode-record-v2.js';
export { getAccounts } from './get-accounts.js';
export { getDomainKey, type SnsDomainKey } from './get-domain-key.js';
export { getHashedName } from './get-hashed-name.js';
export { type GetNameAccountKeyParameters, getNameAccountKey } from './get-name-account-key.js';
export { getPrimaryDomainKey } from './get-primary-domain-key.js';
export { type GetPrimaryNameParameters, getPrimaryName, type PrimaryName } from './get-primary-name.js';
export { getRecordKey, getRecordV2Key, SNS_RECORDS, type SnsRecord } from './get-record-key.js';
export { getReverseKey } from './get-reverse-key.js';
export { type GetSnsDomainParameters, getSnsDomain, type SnsDomain } from './get-sns-domain.js';
export { getTokenizationKeys, isActiveNftRecord } from './get-tokenization-keys.js';
export { type GetTokenizedHolderParameters, getTokenizedHolder } from './get-tokenized-holder.js';
export { type ParsedSnsName, parseSnsName } from './parse-sns-name.js';
export { createSnsProvider, DEFAULT_SNS_TIMEOUT_MS, SNS_PROVIDER_INFO, type SnsProviderOptions } from './provider.js';
export { type ReverseLookupParameters, reverseLookup } from './reverse-lookup.js';
