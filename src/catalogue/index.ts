export * from './exceptions.js';
export * from './order-types.js';
export * from './states.js';
export * from './transitions.js';
