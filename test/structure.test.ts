import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layout docs/architecture.md describes, held against the code: no import circles, platform folders
 * that import one way, features that never reach into the platform's callers, the money rules in one
 * module, and no reliance on other projects' internals.
 */
const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.test(-helper)?\.ts$/.test(name) ? [path] : [];
  });
}

const files = sources(src);
const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));

/** Relative imports of a file (static, dynamic and type-only), resolved to source paths. */
function importsOf(file: string): string[] {
  const found: string[] = [];
  for (const m of (text.get(file) ?? '').matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
    const target = resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts'));
    if (text.has(target)) found.push(target);
  }
  return found;
}

const rel = (file: string) => relative(root, file);

describe('structure', () => {
  it('has no import circle in src/', () => {
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].map(rel).join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });

  it('keeps src/platform/ folders in one direction: db ← credits ← graphql ← gateway ← http ← routers', () => {
    const order = ['db', 'credits', 'graphql', 'gateway', 'http', 'routers'];
    const upward: string[] = [];
    for (const file of files) {
      const from = relative(join(src, 'platform'), file).split('/')[0] as string;
      const rank = order.indexOf(from);
      if (rank < 0) continue;
      for (const target of importsOf(file)) {
        const to = relative(join(src, 'platform'), target).split('/')[0] as string;
        if (order.indexOf(to) > rank) upward.push(`${rel(file)} → ${rel(target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('imports no feature from the platform, and one feature another only through its index.ts', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const inPlatform = file.startsWith(join(src, 'platform'));
      // src/features/{index,routes,commands}.ts list every feature's parts: the assembly, not a feature.
      if (dirname(file) === join(src, 'features')) continue;
      const feature = relative(join(src, 'features'), file).split('/')[0];
      for (const target of importsOf(file)) {
        if (!target.startsWith(join(src, 'features'))) continue;
        const other = relative(join(src, 'features'), target).split('/');
        if (inPlatform) wrong.push(`${rel(file)} → ${rel(target)}`);
        else if (file.startsWith(join(src, 'features')) && other[0] !== feature && other[1] !== 'index.ts') {
          wrong.push(`${rel(file)} → ${rel(target)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('holds and settles credits only in src/platform/credits/ (OperationCharge and the ledger)', () => {
    const outside = files.filter(
      (f) =>
        !f.startsWith(join(src, 'platform', 'credits')) &&
        /\b(ledger|credits)\.(reserve|settle|settleReliably)\(/.test(text.get(f) ?? ''),
    );
    expect(outside.map(rel)).toEqual([]);
  });

  it("reads no dependency's dist/ or private state, and no V8 object shape", () => {
    const hits = files.flatMap((f) =>
      (text.get(f) ?? '')
        .split('\n')
        .map((line, i) => [line, i + 1] as const)
        .filter(([line]) => /\/dist\/|getMetadataStorage|TickObject|readyForQuery|ROWS_AS_ARRAYS/.test(line))
        .map(([, n]) => `${rel(f)}:${n}`),
    );
    expect(hits).toEqual([]);
  });
});
