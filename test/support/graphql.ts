import type { TestApp } from './app.js';

/** POSTs `payload` to /graphql as JSON: as the partner holding `apiKey`, or anonymously without one. */
export function postGraphql(
  app: Pick<TestApp, 'http'>,
  payload: Record<string, unknown>,
  apiKey?: string,
  headers: Record<string, string> = {},
) {
  return app.http.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}), ...headers },
    payload,
  });
}
