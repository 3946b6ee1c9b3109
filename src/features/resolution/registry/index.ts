export * from '../../identity/providers/mns/provider.js';
export * from './address.js';
export * from './demo.js';
export * from './import.js';
export * from './name.js';
export * from './networks.js';
export * from './store.js';
