import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from '../../../platform/db/orm.js';
import { importNames } from './import.js';
import { readLines } from './import-parse.js';
import { countNames } from './store.js';

// The JSONL sits beside this module in the source tree; a build (dist/src/…) does not copy it, so
// from there it is read from the source tree the build came from.
const DEMO_FILES = [
  new URL('./demo-names.jsonl', import.meta.url),
  new URL('../../../../../src/features/resolution/registry/demo-names.jsonl', import.meta.url),
];

export function demoNamesFile(): string {
  const found = DEMO_FILES.map((u) => fileURLToPath(u)).find((p) => existsSync(p));
  if (!found) throw new Error('demo-names.jsonl not found beside src/features/resolution/registry/demo.ts');
  return found;
}

/**
 * Fills an empty MNS registry with the few labelled sandbox names of demo-names.jsonl (each carries a
 * `description` text record saying it is a demo), so that a newcomer's first lookups answer. A registry
 * that holds anything is left alone. Returns the number of names seeded.
 */
export async function seedDemoNames(db: Database): Promise<number> {
  if ((await countNames(db)) > 0) return 0;
  const summary = await importNames(db, readLines(demoNamesFile()));
  if (summary.rejected)
    throw new Error(`demo-names.jsonl: ${summary.errors.map((e) => `line ${e.line}: ${e.message}`).join('; ')}`);
  return summary.imported;
}
