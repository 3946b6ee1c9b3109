import type { FastifyInstance } from 'fastify';

const page = (explorer: boolean) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>cipgate</title>
<style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; }</style>
</head>
<body>
<h1>cipgate</h1>
<p>Credit-metered identity and bridge API.</p>
<ul>
<li><a href="docs">REST documentation</a> (<a href="openapi.json">OpenAPI 3.1 document</a>, <a href="openapi.postman.json">Postman collection</a>)</li>
<li><a href="graphql">GraphQL endpoint</a>${explorer ? ' (Apollo Sandbox)' : ''}</li>
${explorer ? '<li><a href="graphiql">GraphiQL</a>: a GraphQL explorer that works offline</li>\n' : ''}</ul>
</body>
</html>
`;

/** Link bar added to Apollo Sandbox's page, which loads from Apollo's CDN and is blank without internet. */
const SANDBOX_LINK =
  '<a id="cipgate-graphiql-link" href="graphiql" style="position:fixed;right:1rem;bottom:1rem;z-index:9999;' +
  'padding:.4rem .8rem;background:#fff;color:#333;border:1px solid #999;border-radius:4px;font:14px system-ui">' +
  'No internet? Open GraphiQL</a>';

/**
 * `/`: a small landing page linking the docs and the explorers. With the explorer on, the Apollo Sandbox
 * landing page on /graphql also links the self-hosted GraphiQL.
 */
export async function landingPages(app: FastifyInstance, { explorer }: { explorer: boolean }) {
  const html = page(explorer);
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  if (!explorer) return;
  // Callback-style: it runs on every answer, and an async hook costs each a promise and a microtask hop.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.url !== '/graphql' || typeof payload !== 'string') return done(null, payload);
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('text/html') || !payload.includes('</body>'))
      return done(null, payload);
    done(null, payload.replace('</body>', `${SANDBOX_LINK}</body>`));
  });
}
