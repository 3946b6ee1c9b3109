export * from './provider.js';
