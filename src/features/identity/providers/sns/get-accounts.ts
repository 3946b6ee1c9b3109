import type { AccountInfo, Connection, PublicKey } from '@solana/web3.js';
import { MalformedAccountError } from './decode-name-registry.js';

/**
 * `getMultipleAccounts` that insists on one answer per key: the callers destructure by position, and a
 * short answer would otherwise read as "these accounts do not exist".
 *
 * @example
 * const [domain, record] = await getAccounts(connection, [domainKey, recordKey]);
 */
export async function getAccounts(
  connection: Connection,
  keys: readonly PublicKey[],
): Promise<(AccountInfo<Buffer> | null)[]> {
  const infos = await connection.getMultipleAccountsInfo([...keys]);
  if (infos.length !== keys.length) {
    throw new MalformedAccountError(`getMultipleAccounts answered ${infos.length} accounts for ${keys.length} keys`);
  }
  return infos;
}
