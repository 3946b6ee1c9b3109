import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, importNamesFile, NAMES_FILE } from '../../../test/fixtures/mns/index.js';
import { startTestApp, type TestApp } from '../../../test/support/app.js';

/** Debian's Chromium, installed by .ci/run; browser downloads from other sites do not work here. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A page on another origin: it calls the API with fetch (a public lookup, and /graphql with a key and a
 * JSON body, both of which need a preflight) and writes what it got into the DOM.
 */
const CALLER = `<!doctype html><html><body>
<pre id="name">pending</pre><pre id="graphql">pending</pre><pre id="keyless">pending</pre><pre id="delete">pending</pre>
<script>
const params = new URLSearchParams(location.search);
const api = params.get('api');
const show = (id) => (value) => { document.getElementById(id).textContent = value; };
fetch(api + '/api/public/identity/name?address=' + params.get('address') + '&caip2Id=move-mvmt:126')
  .then(async (r) => r.status + ' ' + (await r.text()), (e) => 'blocked: ' + e.message)
  .then(show('name'));
fetch(api + '/graphql', {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': params.get('key') },
  body: JSON.stringify({ query: '{ stats { name creditBalance } }' }),
})
  .then(async (r) => r.status + ' ' + r.headers.get('x-request-id') + ' ' + (await r.text()), (e) => 'blocked: ' + e.message)
  .then(show('graphql'));
fetch(api + '/graphql', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query: '{ primaryName(caip2Id: "move-mvmt:126", address: "' + params.get('address') + '") { name } }' }),
})
  .then(async (r) => r.status + ' ' + (await r.text()), (e) => 'blocked: ' + e.message)
  .then(show('keyless'));
fetch(api + '/partners/webhooks/00000000-0000-4000-8000-000000000000', {
  method: 'DELETE',
  headers: { 'x-api-key': params.get('key') },
})
  .then(async (r) => String(r.status), (e) => 'blocked: ' + e.message)
  .then(show('delete'));
</script></body></html>`;

const present = existsSync(CHROMIUM);
if (!present) console.warn(`browser tests skipped: Chromium not found at ${CHROMIUM} (apt-get install -y chromium)`);

describe.skipIf(!present)(`in a headless Chromium (${CHROMIUM})`, () => {
  let app: TestApp;
  let api: string;
  let pages: Server;
  let pagePort: number;
  let browser: BrowserContext;
  let profile: string;
  /** Requests the browser tried to send anywhere but loopback: none may be needed (offline). */
  const outside: string[] = [];

  beforeAll(async () => {
    pages = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(CALLER));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pagePort = (pages.address() as AddressInfo).port;
    app = await startTestApp({ CORS_ORIGINS: `http://127.0.0.1:${pagePort}` });
    expect((await importNamesFile(app.database.url, NAMES_FILE)).code).toBe(0);
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    api = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
    profile = mkdtempSync(join(tmpdir(), 'cipgate-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
    });
    await browser.route('**/*', (route) => {
      const { hostname } = new URL(route.request().url());
      if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
      outside.push(route.request().url());
      return route.abort('internetdisconnected');
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await new Promise((resolve) => pages?.close(resolve));
    await app?.stop();
  });

  it('lets a page on another origin call a public lookup and /graphql (an allowed origin)', async () => {
    const { apiKey } = await app.partner(7, 'Browser Partner');
    const page = await browser.newPage();
    const caller = `http://127.0.0.1:${pagePort}/?api=${encodeURIComponent(api)}&address=${ALICE}&key=${apiKey}`;
    await page.goto(caller);
    await expect.poll(() => page.textContent('#name'), { timeout: 15_000 }).not.toBe('pending');
    await expect.poll(() => page.textContent('#graphql'), { timeout: 15_000 }).not.toBe('pending');
    expect(await page.textContent('#name')).toBe(`200 ${JSON.stringify({ name: 'alice.snow', owner: ALICE })}`);
    const graphql = (await page.textContent('#graphql')) as string;
    // The script can read an exposed header, not only the body.
    expect(graphql).toMatch(/^200 [\w-]{8,} /);
    expect(JSON.parse(graphql.split(' ').slice(2).join(' '))).toMatchObject({
      data: { stats: { name: 'Browser Partner', creditBalance: 7 } },
    });
    await expect.poll(() => page.textContent('#keyless'), { timeout: 15_000 }).toMatch(/^200 .*alice\.snow/);
    // A DELETE with a key passes its preflight: the answer (no such webhook) reaches the script.
    await expect.poll(() => page.textContent('#delete'), { timeout: 15_000 }).toBe('404');
    await page.close();
  });

  it('keeps partner and GraphQL calls from origins not listed, while public lookups stay open', async () => {
    const { apiKey } = await app.partner(7);
    const page = await browser.newPage();
    // localhost and 127.0.0.1 are different origins; only the latter is in CORS_ORIGINS.
    await page.goto(`http://localhost:${pagePort}/?api=${encodeURIComponent(api)}&address=${ALICE}&key=${apiKey}`);
    await expect.poll(() => page.textContent('#graphql'), { timeout: 15_000 }).toMatch(/^blocked: /);
    await expect.poll(() => page.textContent('#delete'), { timeout: 15_000 }).toMatch(/^blocked: /);
    await expect.poll(() => page.textContent('#name'), { timeout: 15_000 }).toMatch(/^200 /);
    // GraphQL without a key is open to every origin, as public lookups are.
    await expect.poll(() => page.textContent('#keyless'), { timeout: 15_000 }).toMatch(/^200 .*alice\.snow/);
    await page.close();
  });

  it('renders /docs offline, listing every documented path', async () => {
    const doc = (await (await fetch(`${api}/openapi.json`)).json()) as { paths: Record<string, object> };
    const expected = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(expected.length).toBeGreaterThan(5);
    const page = await browser.newPage();
    outside.length = 0;
    await page.goto(`${api}/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });
    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map((b) => {
        const method = b.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
        const path = b.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${method} ${path}`;
      }),
    );
    expect(listed.sort()).toEqual(expected);
    expect(await page.textContent('.info .title')).toContain('cipgate');
    expect(outside).toEqual([]);
    await page.close();
  });

  it('runs a query in the self-hosted /graphiql offline', async () => {
    const page = await browser.newPage();
    outside.length = 0;
    await page.goto(`${api}/graphiql`);
    await page.waitForSelector('.graphiql-query-editor .CodeMirror', { timeout: 20_000 });
    // GraphiQL's editor is CodeMirror 5, which hangs its API on its element.
    await page.$eval(
      '.graphiql-query-editor .CodeMirror',
      (editor, query) =>
        (editor as unknown as { CodeMirror: { setValue(text: string): void } }).CodeMirror.setValue(query),
      '{ publicName: primaryName(address: "0x0b0b", caip2Id: "move-mvmt:*") { name } }',
    );
    await page.click('.graphiql-execute-button');
    await expect
      .poll(() => page.textContent('.graphiql-response'), { timeout: 15_000 })
      .toMatch(/"publicName":\s*\{\s*"name":\s*"bob\.snow"/);
    expect(outside).toEqual([]);
    await page.close();
  });

  it('links GraphiQL from / and from the Apollo Sandbox page', async () => {
    const page = await browser.newPage();
    await page.goto(`${api}/`);
    const links = await page.$$eval('a', (as) => as.map((a) => a.getAttribute('href')));
    expect(links).toEqual(expect.arrayContaining(['docs', 'graphql', 'graphiql', 'openapi.json']));
    await page.click('text=GraphiQL');
    await page.waitForSelector('.graphiql-container', { timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/graphiql');
    // Offline, the Sandbox itself cannot load; its page still offers the way to GraphiQL.
    await page.goto(`${api}/graphql`);
    expect(await page.getAttribute('#cipgate-graphiql-link', 'href')).toBe('graphiql');
    await page.close();
  });
});
