export * from './catalogue/index.js';
export * from './errors/index.js';
