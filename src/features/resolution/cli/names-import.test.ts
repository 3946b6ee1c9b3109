import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importNamesFile, jsonlFile } from '../../../../test/fixtures/mns/index.js';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.js';
import { withTestDatabase } from '../../../../test/support/with-database.js';
import { parseArgs } from '../../../platform/cli/command.js';
import { createMnsProvider } from '../naming-provider.js';
import { namesImport } from './names-import.js';

const X = `0x${'ab'.repeat(32)}`;
const Y = '0x0000000000000000000000000000000000000000000000000000000000000042';

describe('names:import', () => {
  const { db, database } = withTestDatabase();
  beforeEach(async () => {
    await db.run('delete from mns_name');
  });

  const rows = async () =>
    db.query<{ name: string; network: string; owner: string; is_primary: unknown }>(
      'select name, network, owner, is_primary from mns_name order by name, network',
    );
  const primaries = async () =>
    (await rows()).filter((r) => r.is_primary === true || r.is_primary === 1).map((r) => `${r.name}@${r.network}`);

  it('reports each bad line by number, writes none of it, and writes every good line', async () => {
    const file = jsonlFile([
      { name: 'good1', caip2Id: 'move-mvmt:126', owner: X },
      '{"name": "broken", ',
      { name: 'noowner', caip2Id: 'move-mvmt:126' },
      '',
      { name: 'badnet', caip2Id: 'eip155:1', owner: X },
      { name: 'wild', caip2Id: 'move-mvmt:*', owner: X },
      { name: 'typo', caip2Id: 'move-mvmt:126', owner: X, expiresAt: '2030-01-01T00:00:00Z' },
      { name: 'badtxt', caip2Id: 'move-mvmt:126', owner: X, txtRecords: [{ key: 'k', value: 'v', type: 'phone' }] },
      { name: 'baddate', caip2Id: 'move-mvmt:126', owner: X, expireAt: '2030-01-01T00:00:00' },
      { name: 'bad name', caip2Id: 'move-mvmt:126', owner: X },
      { name: 'badowner', caip2Id: 'move-mvmt:126', owner: 'alice' },
      {
        name: 'badchain',
        caip2Id: 'move-mvmt:126',
        owner: X,
        multichainAddresses: [{ address: '0x1', caip2Id: 'eth' }],
      },
      '[1, 2]',
      { name: 'good2', caip2Id: 'move-mvmt:testnet', owner: X, primary: true },
    ]);
    const { code, out, err } = await importNamesFile(database.url, file, '--json', '--batch-size', '3');
    expect(code).toBe(1);
    expect(err.join('\n')).toMatch(/11 of 13 lines were rejected/);
    const summary = JSON.parse(out[0] as string);
    expect(summary).toMatchObject({ lines: 13, imported: 2, rejected: 11 });
    expect(summary.errors.map((e: { line: number }) => e.line)).toEqual([2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const byLine = Object.fromEntries(
      summary.errors.map((e: { line: number; message: string }) => [e.line, e.message]),
    );
    expect(byLine[2]).toMatch(/not valid JSON/);
    expect(byLine[3]).toMatch(/"owner"/);
    expect(byLine[5]).toMatch(/move-mvmt/);
    expect(byLine[7]).toMatch(/unknown field "expiresAt"/);
    expect(byLine[8]).toMatch(/txtRecords\[0\]\.type/);
    expect(byLine[9]).toMatch(/zone/);
    expect(byLine[13]).toMatch(/JSON object/);
    expect((await rows()).map((r) => r.name)).toEqual(['good1.snow', 'good2.snow']);
  });

  it('prints rejected lines and a summary in text mode', async () => {
    const file = jsonlFile([{ name: 'ok', caip2Id: 'move-mvmt:126', owner: X }, '{}']);
    const { code, out } = await importNamesFile(database.url, file);
    expect(code).toBe(1);
    expect(out[0]).toMatch(/^line 2: "name" must be a non-empty string$/);
    expect(out[1]).toMatch(/^Imported 1 of 2 names from .* in [\d.]+ s; 1 lines rejected\.$/);
  });

  it('exits 0 on a clean file and 2 on a missing one', async () => {
    const clean = await importNamesFile(database.url, jsonlFile([{ name: 'ok', caip2Id: 'move-mvmt:126', owner: X }]));
    expect(clean.code).toBe(0);
    expect(clean.out.at(-1)).toMatch(/^Imported 1 of 1 names/);
    const missing = await importNamesFile(database.url, '/nonexistent/names.jsonl');
    expect(missing.code).toBe(2);
    expect(missing.err.join('\n')).toMatch(/cannot read/);
  });

  it.each([1, 2, 1000])(
    'keeps one primary name per owner and network, a new one demoting the old (batch size %i)',
    async (batch) => {
      const first = jsonlFile([
        { name: 'a', caip2Id: 'move-mvmt:126', owner: X, primary: true },
        { name: 'a', caip2Id: 'move-mvmt:177', owner: X, primary: true },
        { name: 'c', caip2Id: 'move-mvmt:126', owner: Y, primary: true },
        // Same owner written in short, upper-case form: the same address, so it demotes c.
        { name: 'd', caip2Id: 'move-mvmt:126', owner: '0x42', primary: true },
      ]);
      expect((await importNamesFile(database.url, first, '--batch-size', String(batch))).code).toBe(0);
      expect(await primaries()).toEqual(['a.snow@126', 'a.snow@177', 'd.snow@126']);

      const second = jsonlFile([
        { name: 'b', caip2Id: 'move-mvmt:126', owner: X.toUpperCase().replace('0X', '0x'), primary: true },
        // d changes hands and stops being primary; c does not become primary again by itself.
        { name: 'd', caip2Id: 'move-mvmt:126', owner: X },
        // A later line for the same name replaces an earlier one of the same file.
        { name: 'e', caip2Id: 'move-mvmt:126', owner: Y, primary: true },
        { name: 'e', caip2Id: 'move-mvmt:126', owner: Y },
      ]);
      expect((await importNamesFile(database.url, second, '--batch-size', String(batch))).code).toBe(0);
      // Testnet's primary is untouched; Y's old primary d was demoted by e, which was then un-primaried.
      expect(await primaries()).toEqual(['a.snow@177', 'b.snow@126']);
      const mns = createMnsProvider(db, ['126']);
      expect(await mns.reverse(X)).toBe('b.snow');
      expect(await mns.reverse(Y)).toBeNull();
    },
  );

  it('upserts by name and network: a line replaces the stored record', async () => {
    const v1 = jsonlFile([
      {
        name: 'a',
        caip2Id: 'move-mvmt:126',
        owner: X,
        avatar: 'https://example.com/a.png',
        txtRecords: [{ key: 'com.github', value: 'a' }],
        expireAt: '2099-01-01T00:00:00Z',
      },
    ]);
    const v2 = jsonlFile([
      {
        name: 'A.snow',
        caip2Id: 'move-mvmt:mainnet',
        owner: Y,
        txtRecords: [{ key: 'url', value: 'https://a.example' }],
      },
    ]);
    expect((await importNamesFile(database.url, v1)).code).toBe(0);
    expect((await importNamesFile(database.url, v2)).code).toBe(0);
    expect(await rows()).toHaveLength(1);
    const record = await createMnsProvider(db).records('a.snow');
    expect(record).toMatchObject({
      name: 'a.snow',
      ownerAddress: Y,
      avatar: null,
      expireAt: null,
      txtRecords: [{ key: 'url', value: 'https://a.example', type: 'url' }],
    });
  });

  it('keeps quotes, backslashes, braces, commas and NULL-looking text exactly as given', async () => {
    const tricky = 'say "hi", {x} \\ back\\\\slash NULL \u00e9\u{1f600}';
    const file = jsonlFile([
      {
        name: 'q.snow',
        caip2Id: 'move-mvmt:126',
        owner: X,
        avatar: 'https://example.com/a,b{c}.png?"q"',
        txtRecords: [
          { key: 'description', value: tricky },
          { key: 'NULL', value: 'NULL' },
        ],
        registeredAt: '2024-02-29T23:59:59.123+02:00',
      },
    ]);
    expect((await importNamesFile(database.url, file)).code).toBe(0);
    expect(await createMnsProvider(db).records('q.snow')).toMatchObject({
      avatar: 'https://example.com/a,b{c}.png?"q"',
      registeredAt: new Date('2024-02-29T21:59:59.123Z'),
      txtRecords: [
        { key: 'description', value: tricky, type: 'text' },
        { key: 'NULL', value: 'NULL', type: 'text' },
      ],
    });
  });

  it('redraws progress on a terminal at most four times a second, with the names per second', async () => {
    const file = jsonlFile(
      // An owner a name: on SQLite one owner's names in a window share a transaction whatever the batch size.
      Array.from({ length: 300 }, (_, i) => ({
        name: `p${i}`,
        caip2Id: 'move-mvmt:126',
        owner: `0x${(i + 1).toString(16)}`,
      })),
    );
    const shown: string[] = [];
    const started = performance.now();
    // A batch a line: 300 batches, each reporting its progress to the command.
    await namesImport.run(parseArgs([file, '--batch-size', '1'], namesImport.options), {
      db,
      out: () => {},
      json: false,
      progress: (line) => shown.push(line),
    });
    const elapsed = performance.now() - started;
    expect(shown.length).toBeGreaterThanOrEqual(1);
    expect(shown.length).toBeLessThanOrEqual(1 + Math.floor(elapsed / 250));
    expect(shown[0]).toMatch(/^\d+ lines read, 1 imported \(\d+ names\/s\), 0 rejected, [\d.]+ s$/);
  });

  it('imports names on every Movement network, Bardock (move-mvmt:250) included', async () => {
    const file = jsonlFile([
      { name: 'bardock', caip2Id: 'move-mvmt:250', owner: X, primary: true },
      { name: 'bardock', caip2Id: 'move-mvmt:126', owner: Y },
    ]);
    expect((await importNamesFile(database.url, file)).code).toBe(0);
    expect((await rows()).map((r) => `${r.name}@${r.network}`)).toEqual(['bardock.snow@126', 'bardock.snow@250']);
    expect(await primaries()).toEqual(['bardock.snow@250']);
  });
});

describe('names:import at volume', () => {
  let database: TestDatabase;
  afterEach(async () => database?.drop());

  it('imports 20k lines in batched transactions', async () => {
    database = await createTestDatabase();
    const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
    const file = jsonlFile(
      Array.from({ length: 20_000 }, (_, i) => ({
        name: `n${i}`,
        caip2Id: i % 2 ? 'move-mvmt:126' : 'move-mvmt:177',
        owner: hex(i >> 1),
        primary: true,
        txtRecords: [{ key: 'com.twitter', value: `n${i}` }],
      })),
    );
    const started = performance.now();
    const { code, out } = await importNamesFile(database.url, file, '--json');
    const ms = performance.now() - started;
    expect(code).toBe(0);
    const summary = JSON.parse(out[0] as string);
    expect(summary).toMatchObject({ lines: 20_000, imported: 20_000, rejected: 0 });
    // The process's own usage, for sizing an import: a peak of some MiB and pages touched, CPU time spent.
    expect(summary.process.peakMiB).toBeGreaterThan(10);
    expect(summary.process.pageFaults).toBeGreaterThan(1000);
    expect(summary.process.userSeconds + summary.process.systemSeconds).toBeGreaterThan(0);
    // Generous: a statement per line instead of per batch takes several times longer on either database.
    expect(ms).toBeLessThan(15_000);
  });
});
