export * from './application.js';
export * from './grid.js';
