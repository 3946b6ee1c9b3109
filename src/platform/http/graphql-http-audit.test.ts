import type { AddressInfo } from 'node:net';
import { serverAudits } from 'graphql-http';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/use-app.js';

/**
 * graphql-http's server audits (the GraphQL-over-HTTP spec's conformance suite), run against a listening
 * server without a key: every MUST passes, and the SHOULDs and MAYs not met are exactly the deliberate ones.
 */
describe('GraphQL over HTTP audits (graphql-http)', () => {
  const app = useTestApp();
  let url: string;
  beforeAll(async () => {
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}/graphql`;
  });

  it('passes every MUST audit', async () => {
    const failures: string[] = [];
    const shoulds: string[] = [];
    for (const audit of serverAudits({ url })) {
      const result = await audit.fn();
      if (result.status === 'ok') continue;
      const line = `${audit.name}: ${result.reason}`;
      if (audit.name.startsWith('MUST')) failures.push(line);
      else shoulds.push(line);
    }
    expect(failures).toEqual([]);
    // Deliberate, as Apollo Server answers (docs/api.md, "GraphQL over HTTP"): GETs need a non-simple
    // header (CSRF prevention), and errors before execution are 400s when the client accepts JSON.
    expect(shoulds.map((line) => line.slice(0, line.indexOf(':')))).toEqual([
      'MAY accept application/x-www-form-urlencoded formatted GET requests',
      'MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/graphql-response+json',
      'MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/json',
      'SHOULD use 200 status code on document parsing failure when accepting application/json',
      'SHOULD use 200 status code on document validation failure when accepting application/json',
      'SHOULD use a status code of 200 on variable coercion failure when accepting application/json',
    ]);
  });
});
