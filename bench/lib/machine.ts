import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

/** What every report states about the run: when, on what machine and Node, at which commit. */
export function machineMeta(root: string) {
  return {
    date: new Date().toISOString(),
    node: process.versions.node,
    cpus: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}`,
    memory: `${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM`,
    commit: gitCommit(root),
  };
}

/**
 * The commit measured, flagged when the code in src/ or bench/ differs from it (numbers then describe other
 * code); the bench's own earlier results and the docs do not count.
 */
function gitCommit(root: string): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'bench', ':!bench/results', ':!*.md'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${sha} (with uncommitted changes in src/ or bench/)` : sha;
  } catch {
    return 'unknown';
  }
}
