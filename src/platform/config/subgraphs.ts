import type { Reader } from './values.js';

/** Subgraphs run in other processes, the secret the gateway signs their calls with, and Apollo Router's coprocessor. */
export interface SubgraphSettings {
  /** Subgraphs served by other processes (name → GraphQL URL); the rest run in this process. */
  subgraphUrls: Record<string, string>;
  /** Shared by the gateway and subgraph processes to sign and check gateway tokens (src/platform/gateway/subgraph-token.ts). */
  subgraphSecret: string | undefined;
  /** Where `npm run subgraph` listens: loopback unless told otherwise, since only the gateway should call it. */
  subgraphHost: string;
  subgraphPort: number;
  /** Longest the gateway waits for one remote subgraph fetch. */
  subgraphTimeoutMs: number;
  /** Enables POST /router/coprocessor for Apollo Router; the Router's coprocessor URL carries it as ?secret=. */
  routerCoprocessorSecret: string | undefined;
}

export function subgraphSection(read: Reader): SubgraphSettings {
  const subgraphUrls: Record<string, string> = {};
  for (const pair of read.list('SUBGRAPH_URLS').filter((p) => p.trim())) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (at < 0 || !/^[a-z][a-z0-9-]*$/.test(name) || !/^https?:\/\//.test(value)) {
      read.problem(`SUBGRAPH_URLS must be a comma-separated list of <subgraph>=<http url>, got "${pair}"`);
    } else subgraphUrls[name] = value;
  }
  const subgraphSecret = read.str('SUBGRAPH_SECRET');
  if (subgraphSecret !== undefined && subgraphSecret.length < 32) {
    read.problem('SUBGRAPH_SECRET must be at least 32 characters');
  } else if (subgraphSecret === undefined && Object.keys(subgraphUrls).length) {
    read.problem('SUBGRAPH_SECRET is required when SUBGRAPH_URLS is set');
  }
  const routerCoprocessorSecret = read.str('ROUTER_COPROCESSOR_SECRET');
  if (routerCoprocessorSecret !== undefined && !/^[A-Za-z0-9._~-]{32,}$/.test(routerCoprocessorSecret)) {
    read.problem('ROUTER_COPROCESSOR_SECRET must be at least 32 URL-safe characters (letters, digits, . _ ~ -)');
  } else if (routerCoprocessorSecret !== undefined && subgraphSecret === undefined) {
    read.problem(
      'SUBGRAPH_SECRET is required when ROUTER_COPROCESSOR_SECRET is set (the coprocessor signs subgraph calls)',
    );
  }
  return {
    subgraphUrls,
    subgraphSecret,
    subgraphHost: read.str('SUBGRAPH_HOST') ?? '127.0.0.1',
    subgraphPort: read.int('SUBGRAPH_PORT', 4001, 0, 65535),
    subgraphTimeoutMs: read.int('SUBGRAPH_TIMEOUT_MS', 5000, 100, 60_000),
    routerCoprocessorSecret,
  };
}
