export * from './distribution.js';
export * from './application.js';
export * from './grid.js';
export * from './fig11.js';
