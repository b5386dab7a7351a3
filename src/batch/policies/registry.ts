// The batch policies, by name: the CLI help, the README table and the experiment tool read this list.
// Adding a policy is one file in this folder and one line below.
import { conservative } from './conservative.js';
import { easy } from './easy.js';
import { fcfs } from './fcfs.js';
import { ljf } from './ljf.js';
import type { BatchPolicy } from './policy.js';
import { sjf } from './sjf.js';

export type { BatchPolicy, BatchQueue, Machine, RunningEnd } from './policy.js';

const POLICIES: readonly BatchPolicy[] = [fcfs, sjf, ljf, easy, conservative];

export function listBatchPolicies(): readonly BatchPolicy[] {
  return POLICIES;
}

export function getBatchPolicy(name: string): BatchPolicy {
  const found = POLICIES.find((p) => p.name === name);
  if (found !== undefined) return found;
  throw new Error(`unknown batch policy "${name}"; expected one of: ${POLICIES.map((p) => p.name).join(', ')}`);
}
