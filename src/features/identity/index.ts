/**
 * What other features may use of identity: the naming-provider contract identity search asks (another
 * feature brings its own naming service by implementing it) and the record vocabulary it answers in.
 * Nothing here loads the subgraph (subgraph.ts), so a command that only reads names stays light.
 */
export { txtRecordType } from './providers/txt-records.js';
export type {
  ChainAddress,
  NameRecord,
  NamingProvider,
  NamingProviderInfo,
  TxtRecord,
  TxtRecordType,
} from './providers/types.js';
