/**
 * What platform tests need from the features (partners, keys, the product's subgraphs and routes, the
 * names test app), gathered here like the rest of the test support: platform code never imports a feature.
 */
export { issueApiKey, revokeApiKey } from '../../src/features/accounts/api-keys.js';
export { createPartner, getPartner } from '../../src/features/accounts/partners.js';
export { subgraphs } from '../../src/features/index.js';
export { useNamesApp } from '../../src/features/resolution/names-app.test-helper.js';
export { restRoutes } from '../../src/features/routes.js';
