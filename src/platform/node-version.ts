/**
 * The oldest Node.js this service runs on: the embedded database is `node:sqlite`, usable without a flag
 * from 22.13, and the code relies on 22.17's fixes. Checked by the entry points before anything else is
 * loaded, because on an older Node the first sign would be a cryptic failure to link `node:sqlite`.
 *
 * This module must stay free of imports, so that it loads on any Node.
 */
export const MINIMUM_NODE = '22.17.0';

/** The message for an unsupported Node version, or undefined when `version` is new enough. */
export function unsupportedNode(version: string = process.versions.node): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [minMajor = 0, minMinor = 0] = MINIMUM_NODE.split('.').map(Number);
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return undefined;
  return `cipgate: Node ≥ 22.17 required, this is Node ${version}. Install Node 22.17+ (24 recommended), or run through npm (npm start, npm run admin), which uses the Node pinned in package.json.`;
}

/** Exits with the message above on an unsupported Node. */
export function requireSupportedNode(): void {
  const problem = unsupportedNode();
  if (!problem) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
