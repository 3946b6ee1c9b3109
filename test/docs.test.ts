import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The documentation is reference, not history: every file it names exists, the README and the
 * performance page stay short, and no Markdown page or TypeScript source narrates rounds, runs or hosts.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Files under `dir` (relative to the root) whose names end in `ext`, recursively, outside node_modules and dist. */
function filesUnder(dir: string, ext: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(abs)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const path = join(abs, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(relative(root, path), ext));
    else if (entry.endsWith(ext)) out.push(relative(root, path));
  }
  return out.sort();
}
const markdownUnder = (dir: string) => filesUnder(dir, '.md');

/** The pages a reader is sent to: the README, docs/, the bench's how-to, and client docs if any. */
const pages = ['README.md', ...markdownUnder('docs'), 'bench/README.md', ...markdownUnder('clients')].filter((p) =>
  existsSync(join(root, p)),
);

/** TypeScript sources, tests and the bench, whose comments are held to the same rule as the pages. */
const sources = ['src', 'test', 'bench'].flatMap((dir) => filesUnder(dir, '.ts'));

const read = (page: string) => readFileSync(join(root, page), 'utf8');

/** Narration of rounds, past runs or the machine they ran on; spelled with `\s` so this file does not match itself. */
const NARRATION = /this\sround|th\sround|previous\sround|this\shost/i;

/** The lines of `file` that narrate, as `file:line: text`. */
const narrationIn = (file: string) =>
  read(file)
    .split('\n')
    .map((line, i) => `${file}:${i + 1}: ${line}`)
    .filter((line) => NARRATION.test(line));

/** Lines as `wc -l` counts them. */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** Files at the top of the repository that pages may name without a folder. */
const TOP_LEVEL = new Set([
  'compose.yaml',
  'Dockerfile',
  '.dockerignore',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'vitest.config.ts',
  'biome.json',
  'codegen.ts',
  'README.md',
]);
const REPO_PATH = /^(src|test|bench|docs|schema|\.ci)\//;

/**
 * Backticked spans that name a file or folder of this repository, as written: `src/app.ts`,
 * `src/platform/http/`, `src/app.ts:42`. Placeholders (`<name>`), globs and commands are not paths.
 */
function repoPathsIn(text: string): string[] {
  const paths: string[] = [];
  for (const [, span = ''] of text.matchAll(/`([^`\n]+)`/g)) {
    if (/[\s<>*{}…|]/.test(span)) continue;
    const path = span.replace(/:\d+(-\d+)?$/, '').replace(/\/+$/, '');
    if (REPO_PATH.test(span) || TOP_LEVEL.has(path)) paths.push(path);
  }
  return paths;
}

/** Relative Markdown link targets (`[text](../bench/README.md#section)`), resolved from the page's folder. */
function linkTargetsIn(page: string, text: string): string[] {
  const targets: string[] = [];
  for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    const file = target.split('#')[0] as string;
    targets.push(relative(root, resolve(root, dirname(page), file)).replace(/\/+$/, '') || '.');
  }
  return targets;
}

describe('documentation', () => {
  it('has the pages it links to', () => {
    for (const page of ['README.md', 'docs/architecture.md', 'docs/performance.md', 'bench/README.md']) {
      expect(pages).toContain(page);
    }
  });

  it('finds backticked repository paths, without line numbers or trailing slashes', () => {
    expect(repoPathsIn('see `src/app.ts:42`, `src/platform/http/`, `compose.yaml` and `npm test`')).toEqual([
      'src/app.ts',
      'src/platform/http',
      'compose.yaml',
    ]);
    expect(repoPathsIn('`src/features/<name>/`, `schema/*.graphql`, `main.ts`, `data/sandbox-key.txt`')).toEqual([]);
  });

  it.each(pages)('%s names only files that exist', (page) => {
    const missing = repoPathsIn(read(page)).filter((path) => !existsSync(join(root, path)));
    expect(missing, `${page} names paths that do not exist`).toEqual([]);
  });

  it.each(pages)('%s links only to files that exist', (page) => {
    const missing = linkTargetsIn(page, read(page)).filter((path) => !existsSync(join(root, path)));
    expect(missing, `${page} links to files that do not exist`).toEqual([]);
  });

  it('keeps the README and the performance page short', () => {
    expect(lineCount(read('README.md'))).toBeLessThanOrEqual(350);
    expect(lineCount(read('docs/performance.md'))).toBeLessThanOrEqual(150);
  });

  it.each(pages)('%s narrates no rounds, runs or hosts', (page) => {
    expect(narrationIn(page)).toEqual([]);
  });

  it('finds the TypeScript sources it checks', () => {
    expect(sources).toContain('src/app.ts');
    expect(sources).toContain('test/docs.test.ts');
    expect(sources.some((file) => file.startsWith('bench/'))).toBe(true);
  });

  it('has no TypeScript source under src/, test/ or bench/ that narrates rounds, runs or hosts', () => {
    expect(sources.flatMap(narrationIn)).toEqual([]);
  });
});
