import { readFileSync } from 'node:fs';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  startTime: number;
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a stack frame belongs. The first matching rule wins. */
const AREAS: [string, (url: string, fn: string) => boolean][] = [
  ['GraphQL validation (graphql-js validate)', (u) => u.includes('/graphql/validation/')],
  ['GraphQL parsing/printing (graphql-js language)', (u) => u.includes('/graphql/language/')],
  ['GraphQL execution (graphql-js execute)', (u) => u.includes('/graphql/execution/')],
  ['graphql-js other (types, utilities)', (u) => u.includes('/node_modules/graphql/')],
  ['Apollo query planner', (u) => u.includes('@apollo/query-planner') || u.includes('@apollo/federation-internals')],
  ['Apollo Gateway (executor, data sources)', (u) => u.includes('@apollo/gateway')],
  ['Apollo Server (request pipeline, plugins)', (u) => u.includes('@apollo/server') || u.includes('@apollo/utils')],
  ['type-graphql resolvers/validation', (u) => u.includes('type-graphql') || u.includes('class-validator')],
  [
    'Fastify (routing, JSON schema, serialisation)',
    (u) => /fastify|find-my-way|ajv|fast-json-stringify|avvio|light-my-request|pino/.test(u),
  ],
  ['MikroORM / query building', (u) => u.includes('@mikro-orm') || u.includes('kysely')],
  ['pg driver', (u) => u.includes('/node_modules/pg') || u.includes('pg-protocol')],
  ['cipgate source', (u) => u.includes('/dist/src/')],
  ['Node internals (http, streams, timers)', (u) => u.startsWith('node:')],
  ['garbage collection', (_u, f) => f === '(garbage collector)'],
  ['other dependencies', (u) => u.includes('/node_modules/')],
  ['V8/native (program)', () => true],
];

/** Specific functions whose inclusive time answers the questions. */
const MARKERS: [string, (url: string, fn: string) => boolean][] = [
  [
    'Apollo Server request pipeline (processGraphQLRequest)',
    (u, f) => f === 'processGraphQLRequest' && u.includes('@apollo/server'),
  ],
  [
    'gateway query planning (QueryPlanner.buildQueryPlan)',
    (u, f) => f === 'buildQueryPlan' && u.includes('query-planner'),
  ],
  [
    'LocalGraphQLDataSource.process (subgraph parse + validate + execute)',
    (u, f) => f === 'process' && u.includes('LocalGraphQLDataSource'),
  ],
  ['graphql-js validate()', (u, f) => f === 'validate' && u.includes('/graphql/validation/validate')],
  ['graphql-js parse()', (u, f) => f === 'parse' && u.includes('/graphql/language/parser')],
  ['graphql-js print()', (u, f) => f === 'print' && u.includes('/graphql/language/printer')],
  ['credits plugin (reserve + settle)', (u) => u.includes('/dist/src/credits/')],
  ['API-key verification (verifyApiKey)', (_u, f) => f === 'verifyApiKey'],
  ['REST route handler → executeOperation', (u, f) => f === 'executeOperation' && u.includes('@apollo/server')],
  ['Fastify response serialisation', (u) => u.includes('fast-json-stringify')],
  ['MikroORM execute', (u, f) => f === 'execute' && u.includes('@mikro-orm')],
];

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  /** Self time per area, largest first. */
  self: { area: string; ms: number; share: number }[];
  /** Inclusive time of marked functions (a frame anywhere on the stack), largest first. */
  inclusive: { what: string; ms: number; share: number }[];
  /** Heaviest individual functions by self time, with the code that called them. */
  topFunctions: { fn: string; ms: number; share: number; calledFrom?: string }[];
}

const describe = (n: CpuProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, '')}:${n.callFrame.lineNumber + 1}`;

/**
 * Summarises a .cpuprofile, counting only samples taken within `window` (microseconds on the monotonic
 * clock, which V8's profile timestamps and `process.hrtime` share on Linux): start-up and module loading
 * are not what a request costs.
 */
export function summarize(path: string, window?: { fromUs: number; toUs: number }): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  if (window) {
    let t = profile.startTime;
    const inside = profile.samples.map((_, i) => {
      t += profile.timeDeltas[i] ?? 0;
      return t >= window.fromUs && t <= window.toUs;
    });
    // Only when the clocks agree: otherwise the whole profile is better than none.
    if (inside.some(Boolean)) {
      profile.samples = profile.samples.filter((_, i) => inside[i]);
      profile.timeDeltas = profile.timeDeltas.filter((_, i) => inside[i]);
    }
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });

  const areaOf = (n: CpuProfileNode) =>
    (AREAS.find(([, test]) => test(n.callFrame.url, n.callFrame.functionName)) as [string, unknown])[0];
  const markersOf = new Map<number, Set<string>>();
  const stackMarkers = (id: number): Set<string> => {
    const known = markersOf.get(id);
    if (known) return known;
    const n = byId.get(id) as CpuProfileNode;
    const up = parent.get(id);
    const set = new Set(up === undefined ? [] : stackMarkers(up));
    for (const [what, test] of MARKERS) if (test(n.callFrame.url, n.callFrame.functionName)) set.add(what);
    markersOf.set(id, set);
    return set;
  };

  let busy = 0;
  let idle = 0;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const fns = new Map<string, number>();
  const callersOf = new Map<string, Map<string, number>>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id) as CpuProfileNode;
    if (n.callFrame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const area = areaOf(n);
    self.set(area, (self.get(area) ?? 0) + us);
    for (const m of stackMarkers(id)) inclusive.set(m, (inclusive.get(m) ?? 0) + us);
    const fn = describe(n);
    fns.set(fn, (fns.get(fn) ?? 0) + us);
    // Native frames (socket writes, say) say little alone: remember the library code above them.
    let up = parent.get(id);
    while (up !== undefined && !/node_modules|\/dist\//.test((byId.get(up) as CpuProfileNode).callFrame.url))
      up = parent.get(up);
    if (up !== undefined) {
      const callers = callersOf.get(fn) ?? new Map<string, number>();
      const caller = describe(byId.get(up) as CpuProfileNode);
      callers.set(caller, (callers.get(caller) ?? 0) + us);
      callersOf.set(fn, callers);
    }
  }
  const rank = <K extends string>(m: Map<string, number>, key: K) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(
        ([k, us]) =>
          ({ [key]: k, ms: us / 1000, share: busy ? us / busy : 0 }) as { [P in K]: string } & {
            ms: number;
            share: number;
          },
      );
  return {
    busyMs: busy / 1000,
    idleMs: idle / 1000,
    self: rank(self, 'area'),
    inclusive: rank(inclusive, 'what'),
    topFunctions: rank(fns, 'fn')
      .slice(0, 15)
      .map((f) => {
        const callers = [...(callersOf.get(f.fn) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1]);
        const total = callers.reduce((sum, [, us]) => sum + us, 0);
        const calledFrom = callers
          .slice(0, 2)
          .map(([c, us]) => `${c} (${Math.round((us / total) * 100)} %)`)
          .join(', ');
        return calledFrom ? { ...f, calledFrom } : f;
      }),
  };
}
