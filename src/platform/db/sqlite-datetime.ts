import { DateTimeType, type Platform, Type } from '@mikro-orm/core';
import { isoTimestamp, timestampMs } from '../iso-timestamp.js';

/**
 * Timestamps on SQLite are ISO-8601 text (`2025-01-31T12:00:00.000Z`): that is what the SQL statements
 * bind (orm.ts turns Dates into ISO strings) and compare against (`expires_at < ?`), and text of one
 * format sorts in time order. MikroORM would store epoch milliseconds instead, which SQLite sorts
 * before any text and never equal to it, so the entity manager's rows must be written the same way.
 */
export class SqliteIsoDateTimeType extends DateTimeType {
  // Null passes through both ways (nullable columns); the declared types say Date and string only.
  override convertToDatabaseValue(value: Date | string | number): string {
    if (value === null || value === undefined) return value;
    return isoTimestamp((value instanceof Date ? value : new Date(value)).getTime());
  }

  override convertToJSValue(value: string | number | Date): Date {
    if (value === null || value === undefined || value instanceof Date) return value;
    // Read as the registry's rows are (store.ts): the stored form field by field, anything else by V8.
    return new Date(typeof value === 'string' ? timestampMs(value) : value);
  }

  override compareAsType(): string {
    return 'string';
  }
}

/** MikroORM's `discovery.getMappedType` for SQLite: datetime columns as ISO text, everything else as usual. */
export function sqliteMappedType(type: string, platform: Platform): Type<unknown> | undefined {
  const mapped = platform.getDefaultMappedType(type);
  return mapped instanceof DateTimeType ? Type.getType(SqliteIsoDateTimeType) : mapped;
}
