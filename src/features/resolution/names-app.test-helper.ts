import { expect } from 'vitest';
import { importNamesFile, NAMES_FILE } from '../../../test/fixtures/mns/index.js';
import type { TestApp } from '../../../test/support/app.js';
import { useTestApp } from '../../../test/support/use-app.js';

/** A test app for the enclosing describe with the fixture registry (names.jsonl) imported. */
export function useNamesApp(env: Record<string, string> = {}): TestApp {
  return useTestApp(env, {
    setup: async (app) => {
      expect((await importNamesFile(app.database.url, NAMES_FILE)).code).toBe(0);
    },
  });
}
