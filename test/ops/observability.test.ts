import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { listeningPort, startMain } from './main-process.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const onThisRun = (url: string): Record<string, string> => ({
  DATABASE_URL: url,
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
});

interface Span {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

/** A loopback OTLP/HTTP (JSON) trace receiver: the spans it got. */
async function startCollector(): Promise<{ url: string; spans: Span[]; close(): Promise<void> }> {
  const spans: Span[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const payload = JSON.parse(body) as {
          resourceSpans: { scopeSpans: { spans: Span[] }[] }[];
        };
        for (const r of payload.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((r) => server.close(() => r())) };
}

describe('the process an operator starts', () => {
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
  });

  it('logs a start-up summary, request lines with partner/operation/credits, probes at debug only, and exports traces when OTEL_EXPORTER_OTLP_ENDPOINT is set', async () => {
    database = await createTestDatabase();
    const collector = await startCollector();
    const main = startMain({
      ...onThisRun(database.url),
      SANDBOX_SEED: 'false',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    try {
      const port = await listeningPort(main);
      const summary = await main.waitForLog((l) => l.msg === 'cipgate started');
      expect(summary.database).toMatch(/^(sqlite|postgresql) /);
      expect(summary.database).not.toMatch(/password|@/);
      expect(summary.naming).toMatchObject({ mns: 'enabled', ens: expect.stringMatching(/^disabled: /) });
      expect(summary.tracing).toBe('OTLP');

      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query Chains { __typename }', operationName: 'Chains' }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-credits-charged')).toBe('0');
      const line = await main.waitForLog((l) => l.msg === 'request completed' && l.operation === 'Chains');
      expect(line).toMatchObject({ creditsCharged: 0, res: { statusCode: 200 } });
      // LOG_LEVEL=info: the probe left no line at all.
      expect(main.stdout()).not.toContain('/healthz');

      // HTTP → GraphQL in one trace: the server span is the root of the request's GraphQL spans.
      const serverSpan = () => collector.spans.find((s) => s.name.startsWith('POST') && !s.parentSpanId);
      for (let i = 0; i < 100 && !serverSpan(); i++) await new Promise((r) => setTimeout(r, 100));
      const server = serverSpan();
      expect(server, JSON.stringify([...new Set(collector.spans.map((s) => s.name))])).toBeDefined();
      const inTrace = collector.spans.filter((s) => s.traceId === server?.traceId).map((s) => s.name);
      expect(inTrace).toEqual(
        expect.arrayContaining(['graphql.parse', 'graphql.validate', 'gateway.plan', 'gateway.execute']),
      );
      expect(collector.spans.some((s) => /healthz/.test(s.name))).toBe(false);
    } finally {
      main.process.kill('SIGTERM');
      await main.exited;
      await collector.close();
    }
  }, 90_000);

  it('says "Node ≥ 22.17 required" on an old Node instead of failing to load node:sqlite', () => {
    const old = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
    const major = Number(/^v(\d+)/.exec(old.stdout ?? '')?.[1] ?? 'NaN');
    // Needs a Node older than 22.17 on the machine (Debian's): skip where there is none.
    if (!(major < 22)) return;
    // The entry points as compiled, beside only the version check: whatever they import statically
    // would have to load before the check could run, and is missing here.
    const out = mkdtempSync(join(tmpdir(), 'cipgate-node-'));
    try {
      for (const file of ['src/main.ts', 'src/admin.ts', 'src/platform/node-version.ts']) {
        const js = ts.transpileModule(readFileSync(join(root, file), 'utf8'), {
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        }).outputText;
        mkdirSync(dirname(join(out, file)), { recursive: true });
        writeFileSync(join(out, file.replace(/\.ts$/, '.js')), js);
      }
      writeFileSync(join(out, 'package.json'), '{"type":"module"}');
      for (const entry of ['src/main.js', 'src/admin.js']) {
        const run = spawnSync('/usr/bin/node', [join(out, entry)], { encoding: 'utf8', env: { PATH: '' } });
        expect(run.stderr, entry).toContain('Node ≥ 22.17 required, this is Node');
        expect(run.status, entry).toBe(1);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
