// Everything the catalogue modules export; the entries (src/index.ts, webhooks/index.ts) name what they publish.
export * from './exceptions.js';
export * from './limits.js';
export * from './order-types.js';
export * from './states.js';
export * from './transitions.js';
