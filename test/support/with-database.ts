import { afterAll, beforeAll } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/orm.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { handle } from './handle.js';

/**
 * A fresh, migrated database for the enclosing describe (or file), opened before its tests, closed
 * and dropped after them; `database.url` is for what opens its own connection (the admin CLI, an app).
 */
export function withTestDatabase(): { db: Database; database: TestDatabase } {
  let database: TestDatabase | undefined;
  let db: Database | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = await openDatabase(database.url);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });
  return { db: handle(() => db, 'the test database'), database: handle(() => database, 'the test database') };
}
