import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { graphiqlPage } from './graphiql.js';
import { landingPages } from './landing.js';

/** The HTML pages: `/`, the GraphiQL explorer (with the explorer setting on) and the Sandbox link. */
export const pagesPlugin = fp(async (app: FastifyInstance, { explorer }: { explorer: boolean }) => {
  await landingPages(app, { explorer });
  if (explorer) await graphiqlPage(app);
});
