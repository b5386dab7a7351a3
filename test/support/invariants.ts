// The run-record checker lives in the product (src/record/invariants.ts), where `check-heuristic` uses it.
export { checkRunRecord } from '../../src/record/invariants.js';
