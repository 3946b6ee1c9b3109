import { describe, expect, it } from 'vitest';
import { useNamesApp } from '../names-app.test-helper.js';

describe('GET /api/public/identity/metadata/:name', () => {
  const app = useNamesApp();

  const get = (name: string) =>
    app.http.inject({ method: 'GET', url: `/api/public/identity/metadata/${encodeURIComponent(name)}` });

  it('answers the text records of the mainnet registration, then the avatar, as {key, value}', async () => {
    for (const name of ['alice.snow', 'Alice', 'ALICE.SNOW']) {
      const res = await get(name);
      expect(res.statusCode, name).toBe(200);
      expect(res.json()).toEqual({
        metadata: [
          { key: 'com.twitter', value: 'alice' },
          { key: 'url', value: 'https://alice.example' },
          { key: 'email', value: 'alice@example.com' },
          { key: 'bio', value: 'fixture' },
          { key: 'avatar', value: 'https://example.com/alice.png' },
        ],
      });
    }
  });

  it('answers a name that is only on testnet, and an empty list for a name without records', async () => {
    expect((await get('bob')).json()).toEqual({ metadata: [] });
    expect((await get('noresolver.snow')).json()).toEqual({ metadata: [] });
  });
});
