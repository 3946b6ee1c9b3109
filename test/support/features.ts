/**
 * What platform tests need from the features (partners, keys, the product's subgraphs), gathered here
 * like the rest of the test support: platform code itself never imports a feature.
 */
export { issueApiKey } from '../../src/features/accounts/api-keys.js';
export { createPartner, getPartner } from '../../src/features/accounts/partners.js';
export { subgraphs } from '../../src/features/index.js';
