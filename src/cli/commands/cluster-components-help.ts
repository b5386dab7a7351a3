// The batch cluster's registered components as help lines — machines, policies, allocators and their
// parameters — read from the registries, for `trace --help`, `experiment --help` and the README.
import { listAllocators } from '../../batch/allocators/registry.js';
import { listMachineKinds } from '../../batch/machines/registry.js';
import { listNodeAllocatorAliases, listNodeAllocatorFamilies } from '../../batch/machines/node-allocators/registry.js';
import { listBatchPolicies } from '../../batch/policies/registry.js';

export function componentHelp(): string[] {
  const lines = ['Machines:'];
  for (const m of listMachineKinds()) lines.push(`  ${m.syntax.padEnd(22)} ${m.help}`);
  lines.push('Batch policies:');
  for (const p of listBatchPolicies()) lines.push(`  ${p.name.padEnd(22)} ${p.help}${p.contiguous ? '' : ' (not with contiguous allocation)'}`);
  lines.push('Allocators on the bag of cores:');
  for (const a of listAllocators()) lines.push(`  ${a.name.padEnd(22)} ${a.help}`);
  lines.push('Processor allocators on a mesh or torus (NAME[:PARAM…], parameters in order, defaults in brackets):');
  for (const f of listNodeAllocatorFamilies()) {
    const syntax = [f.name, ...f.parameters.map((p) => p.name.toUpperCase())].join(':');
    lines.push(`  ${syntax.padEnd(22)} ${f.help}`);
    for (const p of f.parameters) lines.push(`  ${''.padEnd(24)}${p.name.toUpperCase()}: ${Array.isArray(p.values) ? p.values.join(', ') : p.values} [${p.default}]`);
  }
  const aliases = Object.entries(listNodeAllocatorAliases());
  if (aliases.length > 0) lines.push(`  short names: ${aliases.map(([k, v]) => `${k} = ${v}`).join('; ')}`);
  return lines;
}
