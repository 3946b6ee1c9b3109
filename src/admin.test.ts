import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/support/app.js';
import { createTestDatabase, type TestDatabase } from '../test/support/database.js';
import { commands } from './features/commands.js';
import { runAdmin } from './platform/cli/admin.js';

describe('admin CLI', () => {
  let database: TestDatabase;
  let app: TestApp;
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(
      commands,
      argv,
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      {
        DATABASE_URL: database.url,
      },
    );
    return { code, out, err, last: out.at(-1) ?? '' };
  };
  beforeAll(async () => {
    database = await createTestDatabase();
    // The CLI migrates a fresh database on its own; the app shares it afterwards.
    expect((await run('partner:list')).code).toBe(0);
    app = await startTestApp({}, database);
  });
  afterAll(async () => {
    await app.stop();
    await database.drop();
  });

  it('partner:create --json prints one JSON object whose key works on /partners/stats', async () => {
    const created = await run(
      'partner:create',
      '--name',
      'Globex',
      '--email',
      'ops@globex.test',
      '--credits',
      '50',
      '--json',
    );
    expect(created.code).toBe(0);
    const partner = JSON.parse(created.last);
    expect(partner).toMatchObject({ name: 'Globex', email: 'ops@globex.test', creditBalance: 50 });
    expect(partner.id).toMatch(/^[0-9a-f-]{36}$/);
    const res = await app.http.inject({
      method: 'GET',
      url: '/partners/stats',
      headers: { 'x-api-key': partner.apiKey },
    });
    expect(res.json()).toEqual({ email: 'ops@globex.test', name: 'Globex', creditBalance: 50, creditUsage: 0 });
  });

  it('credits:grant, key:create and key:revoke', async () => {
    const partner = JSON.parse(
      (await run('partner:create', '--name', 'Initech', '--email', 'it@initech.test', '--credits', '0', '--json')).last,
    );
    const granted = await run('credits:grant', '--partner', 'it@initech.test', '--credits', '12', '--json');
    expect(JSON.parse(granted.last)).toMatchObject({ creditBalance: 12 });
    const key = JSON.parse((await run('key:create', '--partner', partner.id, '--json')).last);
    expect(key.apiKey).not.toBe(partner.apiKey);
    expect((await run('key:revoke', partner.keyPrefix)).code).toBe(0);
    const old = await app.http.inject({
      method: 'GET',
      url: '/partners/stats',
      headers: { 'x-api-key': partner.apiKey },
    });
    expect(old.statusCode).toBe(401);
    const fresh = await app.http.inject({
      method: 'GET',
      url: '/partners/stats',
      headers: { 'x-api-key': key.apiKey },
    });
    expect(fresh.json()).toMatchObject({ creditBalance: 12 });
    const listed = JSON.parse((await run('partner:list', '--json')).last);
    expect(listed.find((p: { email: string }) => p.email === 'it@initech.test')).toMatchObject({ activeKeys: 1 });
  });

  it('key:list shows prefixes, labels and last use; usage sums the ledger per operation', async () => {
    const partner = JSON.parse(
      (
        await run(
          'partner:create',
          '--name',
          'Umbrella',
          '--email',
          'u@umbrella.test',
          '--credits',
          '10',
          '--sandbox',
          '--json',
        )
      ).last,
    );
    await run('key:create', '--partner', partner.id, '--label', 'ci');
    const headers = { 'x-api-key': partner.apiKey };
    expect((await app.http.inject({ method: 'GET', url: '/partners/bridge/chains', headers })).statusCode).toBe(200);
    expect((await app.http.inject({ method: 'GET', url: '/partners/bridge/chains', headers })).statusCode).toBe(200);
    await app.services.ledger.whenSettled();

    const { keys } = JSON.parse((await run('key:list', '--partner', 'u@umbrella.test', '--json')).last);
    expect(keys.map((k: { label: string }) => k.label)).toEqual(['initial', 'ci']);
    expect(keys[0].prefix).toBe(partner.keyPrefix);
    const text = await run('key:list', '--partner', partner.id);
    expect(text.out.join('\n')).toMatch(new RegExp(`${partner.keyPrefix}  initial  created .*  last used 20`));
    expect(text.out.join('\n')).toMatch(/ {2}ci {2}created .* {2}last used never/);

    const usage = JSON.parse((await run('usage', '--partner', partner.id, '--granularity', 'hour', '--json')).last);
    expect(usage).toMatchObject({ totalCredits: 2, granularity: 'hour' });
    expect(usage.periods).toEqual([expect.objectContaining({ operation: 'bridgeChains', credits: 2, calls: 2 })]);
    const lines = (await run('usage', '--partner', 'u@umbrella.test')).out;
    expect(lines[0]).toMatch(/Umbrella <u@umbrella.test>: 2 credits charged/);
  });

  it("prints a command's own help with --help, and errors as JSON under --json, in REST's shapes", async () => {
    const help = await run('key:list', '--help');
    expect(help.code).toBe(0);
    expect(help.out.join('\n')).toMatch(/^Usage: npm run admin -- key:list --partner <id\|email>/);
    expect(help.out.join('\n')).toMatch(/--partner <value>/);
    const refused = await run('key:list', '--json');
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.err.join(''))).toEqual({
      error: { code: 'usage', message: '--partner is required', usage: 'key:list --partner <id|email> [--json]' },
    });
    const unknown = await run('frobnicate', '--json');
    expect(JSON.parse(unknown.err.join(''))).toEqual({
      error: { code: 'usage', message: 'Unknown command "frobnicate"' },
    });
  });

  it('explains bad arguments with exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['partner:create', '--name', 'X', '--credits', '5'], /--email is required/],
      [['partner:create', '--name', 'X', '--email', 'not-an-email', '--credits', '5'], /not an e-mail/],
      [['partner:create', '--name', 'X', '--email', 'x@y.test', '--credits=-3'], /--credits must be a whole number/],
      // Strict flags: a misspelt or unknown one is refused, never silently ignored.
      [['partner:create', '--name', 'X', '--email', 'x@y.test', '--credit', '5'], /Unknown option '--credit'/],
      [['partner:list', '--all'], /Unknown option '--all'/],
      [['partner:create', '--name', 'X', '--email', 'x@y.test', '--credits', '1', '--sandbox=yes'], /--sandbox/],
      [['usage', '--partner', 'it@initech.test', '--granularity', 'week'], /granularity must be day or hour/],
      [['key:list'], /--partner is required/],
      [['credits:grant', '--partner', 'nobody@nowhere.test', '--credits', '5'], /no partner/],
      [['key:revoke', 'cgk_ffffffff'], /no active key/],
      [['frobnicate'], /Unknown command/],
    ];
    for (const [argv, message] of cases) {
      const result = await run(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err.join('\n')).toMatch(message);
    }
    await run('partner:create', '--name', 'Dup', '--email', 'dup@x.test', '--credits', '1');
    expect(
      (await run('partner:create', '--name', 'Dup', '--email', 'dup@x.test', '--credits', '1')).err.join(''),
    ).toMatch(/already exists/);
  });
});
