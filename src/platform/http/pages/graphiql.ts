import { accessSync, constants, readFileSync } from 'node:fs';
import { findPackageJSON } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/** A file inside an installed package, whatever its `exports` allow (the UMD builds are not exported). */
const packageFile = (path: string): string => {
  const [name = '', ...rest] = path.split('/');
  const manifest = findPackageJSON(name, import.meta.url);
  if (!manifest) throw new Error(`package ${name} is not installed`);
  return join(dirname(manifest), ...rest);
};

/** Browser builds shipped inside the npm packages: nothing is fetched from a CDN. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'react.js': { file: 'react/umd/react.production.min.js', type: 'text/javascript; charset=utf-8' },
  'react-dom.js': { file: 'react-dom/umd/react-dom.production.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.js': { file: 'graphiql/graphiql.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.css': { file: 'graphiql/graphiql.min.css', type: 'text/css; charset=utf-8' },
  'start.js': { file: '', type: 'text/javascript; charset=utf-8' },
};

// Relative URLs throughout, so the page also works behind a proxy that mounts the service under a prefix.
const START = `
const fetcher = GraphiQL.createFetcher({ url: new URL('../graphql', location.href).href });
const defaultQuery = '# Paid fields need an x-api-key header (Headers tab below).\\n{\\n  bridgeProviders { name enabled reason }\\n}\\n';
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, { fetcher, defaultQuery, defaultEditorToolsVisibility: true, shouldPersistHeaders: false }),
);
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>cipgate · GraphiQL</title>
<link rel="stylesheet" href="graphiql/graphiql.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="graphiql/react.js"></script>
<script src="graphiql/react-dom.js"></script>
<script src="graphiql/graphiql.js"></script>
<script src="graphiql/start.js"></script>
</body>
</html>
`;

/** A self-hosted GraphiQL at /graphiql, for when Apollo Sandbox (loaded from Apollo's CDN) cannot load. */
export async function graphiqlPage(app: FastifyInstance) {
  // Located at start-up, so a missing package fails the boot, not a page view; read at the first view,
  // as most processes never serve the page and the builds would be held for the process's life.
  const assets = new Map(
    Object.entries(ASSETS).map(([name, { file, type }]): [string, { type: string; body: () => Buffer }] => {
      const path = file ? packageFile(file) : undefined;
      if (path) accessSync(path, constants.R_OK);
      let body: Buffer | undefined;
      return [name, { type, body: () => (body ??= path ? readFileSync(path) : Buffer.from(START)) }];
    }),
  );
  app.get('/graphiql', async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get<{ Params: { asset: string } }>('/graphiql/:asset', async (request, reply) => {
    const asset = assets.get(request.params.asset);
    if (!asset) return reply.callNotFound();
    return reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(asset.body());
  });
}
