import type { RestRoute } from '../route.js';
import { partnersStats } from './partners.stats.js';

/** The REST route table: every documented path and the GraphQL operation behind it. */
// biome-ignore lint/suspicious/noExplicitAny: routes differ in their data types
export const restRoutes: RestRoute<any>[] = [partnersStats];
