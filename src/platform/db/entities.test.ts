import {
  type AbstractSqlConnection,
  type AbstractSqlPlatform,
  type Column,
  DatabaseSchema,
  SchemaComparator,
  type SchemaDifference,
  type SchemaHelper,
} from '@mikro-orm/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { type Database, openDatabase } from './orm.js';

/** One difference between the entities ("to") and the live schema the migrations built ("from"). */
interface Drift {
  table: string;
  what: string;
  column?: string;
  property?: string;
  from?: Column;
  to?: Column;
}

/**
 * Everything MikroORM's comparator found, flattened so that no kind of difference (tables, columns and
 * each changed column property, indexes, checks, foreign keys, triggers, views, …) can slip by unread.
 */
function drifts(diff: SchemaDifference): Drift[] {
  const out: Drift[] = [];
  for (const name of Object.keys(diff.newTables)) out.push({ table: name, what: 'table missing in database' });
  for (const table of Object.values(diff.removedTables)) out.push({ table: table.name, what: 'table without entity' });
  for (const [key, value] of Object.entries(diff)) {
    if (['newTables', 'removedTables', 'changedTables', 'fromSchema'].includes(key)) continue;
    const size = value instanceof Set || Array.isArray(value) ? [...value].length : Object.keys(value ?? {}).length;
    if (size) out.push({ table: '*', what: `${key}: ${JSON.stringify([...Object.values(value ?? {})])}` });
  }
  for (const table of Object.values(diff.changedTables)) {
    for (const [key, value] of Object.entries(table)) {
      if (['name', 'fromTable', 'toTable', 'changedColumns'].includes(key) || value === undefined) continue;
      if (typeof value === 'object' && value !== null) {
        for (const name of Object.keys(value)) out.push({ table: table.name, what: `${key} ${name}` });
      } else out.push({ table: table.name, what: `${key} ${JSON.stringify(value)}` });
    }
    for (const [column, change] of Object.entries(table.changedColumns)) {
      for (const property of change.changedProperties) {
        const shown = (c: Column) => JSON.stringify(property === 'type' ? c.type : c[property as keyof Column]);
        out.push({
          table: table.name,
          column,
          property,
          from: change.fromColumn,
          to: change.column,
          what: `${column}.${property}: ${shown(change.fromColumn)} in database, ${shown(change.column)} in entity`,
        });
      }
    }
  }
  return out;
}

/** Splits a `create table` body at its top-level commas (not those inside parentheses or quotes). */
function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts.map((p) => p.replace(/\s+/g, ' ').trim());
}

type SqliteHelper = SchemaHelper & {
  parseTableDefinition(sql: string, cols: unknown[]): unknown;
  getChecks(...args: unknown[]): Promise<{ name: string; expression: unknown; columnName?: string }[]>;
  getColumnDefinitions(...args: unknown[]): Promise<{ columns: Record<string, unknown> }>;
};

/**
 * SQLite keeps no catalogue of constraints, only each table's `create table` text, which MikroORM 7.2.1
 * reads with regexes written for its own one-line DDL. On the migrations' multi-line DDL they misread
 * it: table constraints after the last column are taken as part of that column (so `partner`'s checks
 * and `mns_name`'s network check land on `created_at`/`updated_at`), and `in ('126', '177')` is cut at
 * its comma. This parses the text properly instead, and attributes a table-level check on one column to
 * that column, as PostgreSQL's catalogue does (MikroORM reads such a check as the column's enum).
 */
function parseSqliteDdlProperly(helper: SqliteHelper): void {
  helper.parseTableDefinition = (sql: string) => {
    const body = sql.slice(sql.indexOf('(') + 1, sql.lastIndexOf(')'));
    const columns: Record<string, { name: string; definition: string }> = {};
    const constraints: string[] = [];
    for (const part of splitTopLevel(body)) {
      if (/^(constraint|primary key|unique|check|foreign key)\b/i.test(part)) constraints.push(part);
      else {
        const [, name = '', definition = ''] = /^[`"']?([^`"'\s]+)[`"']?\s*(.*)$/.exec(part) ?? [];
        columns[name] = { name, definition };
      }
    }
    return { columns, constraints };
  };
  const getChecks = helper.getChecks.bind(helper);
  helper.getChecks = async (...args: unknown[]) => {
    const checks = await getChecks(...args);
    const { columns } = await helper.getColumnDefinitions(...args);
    for (const check of checks) {
      if (check.columnName || typeof check.expression !== 'string') continue;
      const code = check.expression.replace(/'(?:[^']|'')*'/g, "''");
      const named = Object.keys(columns).filter((c) => new RegExp(`\\b${c}\\b`).test(code));
      if (named.length === 1) check.columnName = named[0];
    }
    return checks;
  };
}

/**
 * SQLite's registry states the one-primary-name rule with triggers over one owner-keyed index whose
 * covering column is an expression (migration 0014, and the tests in registry/one-primary.test.ts),
 * where the entities declare PostgreSQL's two indexes. Only the insert trigger shows: MikroORM 7's
 * trigger parser has no `update of <columns>` form and skips the update one, which only those tests
 * guard.
 */
const SQLITE_REGISTRY = [
  'mns_name: addedIndexes mns_name_primary_unique',
  'mns_name: changedIndexes mns_name_primary_lookup',
  'mns_name: removedTriggers mns_name_one_primary_insert',
];

/**
 * Differences that are not differences, each matched exactly. Only SQLite has any:
 * - a bytewise collation is spelled `collate "C"` on PostgreSQL (and checked there); SQLite has no
 *   collation named C because its default, BINARY, already orders by bytes, so its columns carry none.
 * - an autoincrementing key must be spelled `integer primary key` on SQLite (which is 64-bit, like
 *   PostgreSQL's `bigserial`) and SQLite reports that rowid column as nullable although it never is.
 * - SQLITE_REGISTRY.
 */
function isNoise(d: Drift, dialect: Database['dialect']): boolean {
  if (dialect !== 'sqlite') return false;
  if (!d.from || !d.to) return SQLITE_REGISTRY.includes(`${d.table}: ${d.what}`);
  if (d.property === 'collation') return d.from.collation === undefined && d.to.collation === 'C';
  const rowid = d.from.primary && d.from.autoincrement && d.to.primary && d.to.autoincrement;
  if (rowid && d.property === 'type') return /^integer$/i.test(d.from.type) && d.to.type === 'bigint';
  if (rowid && d.property === 'nullable') return !!d.from.nullable && !d.to.nullable;
  return false;
}

async function compare(db: Database): Promise<{ drift: string[]; noise: string[] }> {
  const { orm } = db;
  const platform = orm.em.getPlatform() as AbstractSqlPlatform;
  const helper = platform.getSchemaHelper() as SqliteHelper;
  if (db.dialect === 'sqlite') parseSqliteDdlProperly(helper);
  // What `orm.schema.getUpdateSchemaSQL()` compares (the entities against the live database, minus
  // MikroORM's own migrations table), kept as structured data so each difference can be named.
  const target = orm.schema.getTargetSchema();
  const connection = orm.em.getConnection() as AbstractSqlConnection;
  const live = await DatabaseSchema.create(connection, platform, orm.config, undefined, target.getNamespaces());
  const all = drifts(new SchemaComparator(platform).compare(live, target));
  const describe = (d: Drift) => `${d.table.replace(/^public\./, '')}: ${d.what}`;
  return {
    drift: all.filter((d) => !isNoise(d, db.dialect)).map(describe),
    noise: all.filter((d) => isNoise(d, db.dialect)).map(describe),
  };
}

describe('MikroORM entities', () => {
  let testDb: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await openDatabase(testDb.url);
  });

  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('declare every table the migrations create, column for column and constraint for constraint', async () => {
    const { drift, noise } = await compare(db);
    expect(drift).toEqual([]);
    // The ignored differences are exactly the known ones, so a new kind of noise cannot hide there.
    expect([...noise].sort()).toEqual(
      db.dialect === 'sqlite'
        ? [
            'bridge_status_history: id.type: "INTEGER" in database, "bigint" in entity',
            'bridge_status_history: id.nullable: true in database, false in entity',
            'mns_name: name.collation: undefined in database, "C" in entity',
            'mns_name: parent.collation: undefined in database, "C" in entity',
            'mns_name: owner_key.collation: undefined in database, "C" in entity',
            'name_index: name.collation: undefined in database, "C" in entity',
            'ledger_entry: id.type: "INTEGER" in database, "bigint" in entity',
            'ledger_entry: id.nullable: true in database, false in entity',
            ...SQLITE_REGISTRY,
          ].sort()
        : [],
    );
    if (db.dialect === 'postgresql') {
      // Nothing ignored on PostgreSQL, so MikroORM's own answer must be empty too.
      expect(await db.orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
    }
  });

  it('notices a schema that drifted from them', async () => {
    await db.run('drop index ledger_entry_reservation_id_index');
    await db.run('alter table partner add column nickname varchar(255) null');
    await db.run('create index bridge_route_provider_index on bridge_route (provider)');
    // What a new migration without its entity looks like.
    await db.run('create table partner_note (id integer not null primary key, note text not null)');
    const { drift } = await compare(db);
    expect(drift.sort()).toEqual([
      'bridge_route: removedIndexes bridge_route_provider_index',
      'ledger_entry: addedIndexes ledger_entry_reservation_id_index',
      'partner: removedColumns nickname',
      'partner_note: table without entity',
    ]);
  });
});
