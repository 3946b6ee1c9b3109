import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { clientStatementTimeoutMs } from './orm.js';

describe('database settings', () => {
  it('default to bounds that keep an answer within 2 s', () => {
    const { database } = loadConfig({});
    expect(database).toEqual({ poolMax: 10, acquireTimeoutMs: 800, statementTimeoutMs: 1000 });
    // The longest path: wait for a connection, then a statement on a server that stopped answering.
    expect(database.acquireTimeoutMs + clientStatementTimeoutMs(database.statementTimeoutMs)).toBeLessThanOrEqual(2000);
  });

  it('are read from the environment and refused by name when invalid', () => {
    expect(
      loadConfig({ DATABASE_POOL_MAX: '3', DATABASE_ACQUIRE_TIMEOUT_MS: '250', DATABASE_STATEMENT_TIMEOUT_MS: '5000' })
        .database,
    ).toEqual({ poolMax: 3, acquireTimeoutMs: 250, statementTimeoutMs: 5000 });
    try {
      loadConfig({ DATABASE_POOL_MAX: '0', DATABASE_ACQUIRE_TIMEOUT_MS: 'soon', DATABASE_STATEMENT_TIMEOUT_MS: '1.5' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const name of ['DATABASE_POOL_MAX', 'DATABASE_ACQUIRE_TIMEOUT_MS', 'DATABASE_STATEMENT_TIMEOUT_MS']) {
        expect(problems).toContain(name);
      }
    }
  });
});
