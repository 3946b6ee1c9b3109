import { defineEntity, p } from '@mikro-orm/core';

/** One MNS name on one Movement network, filled by `names:import`. */
export const MnsName = defineEntity({
  name: 'MnsName',
  tableName: 'mns_name',
  properties: {
    // Prefix search is a range scan, which needs bytewise ordering ("C" on PostgreSQL; SQLite's default).
    name: p.string().length(255).collation('C').primary(),
    network: p.enum(['126', '177', '250']).columnType('varchar(16)').primary(),
    parent: p.string().length(255).collation('C').nullable(),
    owner: p.string().length(255),
    // Compared by bytes as well (migration 0013): every reverse lookup descends its indexes.
    ownerKey: p.string().columnType('char(66)').collation('C'),
    resolverAddress: p.string().length(255).nullable(),
    isPrimary: p.boolean().default(false),
    registeredAt: p.datetime().nullable(),
    expireAt: p.datetime().nullable(),
    avatar: p.text().nullable(),
    // JSON arrays kept as text, parsed by the registry code.
    txtRecords: p.text().default('[]'),
    multichainAddresses: p.text().default('[]'),
    updatedAt: p.datetime(),
    /** Who wrote the row: `import` (names:import, operator overrides) or `chain` (the MNS indexer). */
    source: p.string().length(16).default('import'),
  },
  // PostgreSQL's form. SQLite states this rule with triggers and keeps only the covering index below,
  // holding `nullif(owner, owner_key)` instead of `owner` (migration 0014): imports write one owner-keyed
  // index instead of two.
  uniques: [{ name: 'mns_name_primary_unique', properties: ['ownerKey', 'network'], where: 'is_primary' }],
  indexes: [
    { name: 'mns_name_parent_index', properties: ['parent', 'network'], where: 'parent is not null' },
    // Covers reverse lookups (migration 0012): every column they read or test, so no probe visits the table.
    {
      name: 'mns_name_primary_lookup',
      properties: ['ownerKey', 'network', 'name', 'owner', 'expireAt', 'isPrimary'],
      where: 'is_primary',
    },
  ],
});

/** A name resolved by a naming provider other than the registry, listed by prefix search until it expires. */
export const NameIndex = defineEntity({
  name: 'NameIndex',
  tableName: 'name_index',
  properties: {
    name: p.text().collation('C').primary(),
    provider: p.string().length(32).primary(),
    record: p.text(),
    expiresAt: p.datetime().index('name_index_expires_at_index'),
  },
});

/** Where the MNS indexer stopped on each Movement network, and the chain head it last saw (for its lag). */
export const MnsIndexerCursor = defineEntity({
  name: 'MnsIndexerCursor',
  tableName: 'mns_indexer_cursor',
  properties: {
    network: p.string().length(16).primary(),
    // Ledger versions are u64: kept as decimal text, beyond a JavaScript number's exact range.
    nextVersion: p.string().length(20),
    ledgerVersion: p.string().length(20).nullable(),
    ledgerTimestamp: p.datetime().nullable(),
    indexedTimestamp: p.datetime().nullable(),
    updatedAt: p.datetime(),
  },
});
