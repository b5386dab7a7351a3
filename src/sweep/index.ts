export * from './sweep-file.js';
export * from './expand.js';
export * from './json-source.js';
export * from './schema-check.js';
export * from './template.js';
