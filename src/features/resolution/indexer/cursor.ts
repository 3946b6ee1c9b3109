import type { Database } from '../../../platform/db/orm.js';
import type { MnsNetwork } from '../registry/networks.js';

/** Where the indexer stands on one network, and how far behind the chain head it last was. */
export interface IndexerCursor {
  network: MnsNetwork;
  /** The first ledger version not yet indexed. */
  nextVersion: bigint;
  ledgerVersion: bigint | null;
  ledgerTimestamp: Date | null;
  /** Block time of the last version indexed. */
  indexedTimestamp: Date | null;
  updatedAt: Date;
}

type Row = Record<string, unknown>;
const toDate = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string | Date));

function toCursor(row: Row): IndexerCursor {
  return {
    network: String(row.network) as MnsNetwork,
    nextVersion: BigInt(String(row.next_version)),
    ledgerVersion: row.ledger_version === null ? null : BigInt(String(row.ledger_version)),
    ledgerTimestamp: toDate(row.ledger_timestamp),
    indexedTimestamp: toDate(row.indexed_timestamp),
    updatedAt: toDate(row.updated_at) as Date,
  };
}

export async function readCursor(db: Pick<Database, 'query'>, network: MnsNetwork): Promise<IndexerCursor | null> {
  const [row] = await db.query<Row>('select * from mns_indexer_cursor where network = ?', [network]);
  return row ? toCursor(row) : null;
}

export async function readCursors(db: Pick<Database, 'query'>): Promise<IndexerCursor[]> {
  return (await db.query<Row>('select * from mns_indexer_cursor order by network')).map(toCursor);
}

/** Written in the same transaction as the registry changes of the versions it moves past. */
export async function writeCursor(db: Pick<Database, 'run'>, cursor: IndexerCursor): Promise<void> {
  await db.run(
    `insert into mns_indexer_cursor (network, next_version, ledger_version, ledger_timestamp, indexed_timestamp, updated_at)
     values (?, ?, ?, ?, ?, ?)
     on conflict (network) do update set next_version = excluded.next_version, ledger_version = excluded.ledger_version,
       ledger_timestamp = excluded.ledger_timestamp,
       indexed_timestamp = coalesce(excluded.indexed_timestamp, mns_indexer_cursor.indexed_timestamp),
       updated_at = excluded.updated_at`,
    [
      cursor.network,
      cursor.nextVersion.toString(),
      cursor.ledgerVersion?.toString() ?? null,
      cursor.ledgerTimestamp,
      cursor.indexedTimestamp,
      cursor.updatedAt,
    ],
  );
}

/** What `/readyz` says about the indexer: per network, how many versions and seconds it is behind. */
export interface IndexerLag {
  network: MnsNetwork;
  nextVersion: string;
  ledgerVersion: string | null;
  lagVersions: string | null;
  lagSeconds: number | null;
  updatedAt: string;
}

export function lagOf(cursor: IndexerCursor): IndexerLag {
  const behind =
    cursor.ledgerVersion === null
      ? null
      : cursor.ledgerVersion >= cursor.nextVersion
        ? cursor.ledgerVersion - cursor.nextVersion + 1n
        : 0n;
  const lagSeconds =
    behind === 0n
      ? 0
      : cursor.ledgerTimestamp && cursor.indexedTimestamp
        ? Math.max(0, Math.round((cursor.ledgerTimestamp.getTime() - cursor.indexedTimestamp.getTime()) / 1000))
        : null;
  return {
    network: cursor.network,
    nextVersion: cursor.nextVersion.toString(),
    ledgerVersion: cursor.ledgerVersion?.toString() ?? null,
    lagVersions: behind?.toString() ?? null,
    lagSeconds,
    updatedAt: cursor.updatedAt.toISOString(),
  };
}
