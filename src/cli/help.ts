// Help texts: `gridsweep --help`, `gridsweep COMMAND --help`, and the README's CLI reference, all built
// from the Command objects so that they cannot disagree.
import type { Command, OptionSpec } from './command.js';
import { GRIDSWEEP_VERSION } from '../version.js';
import { exitStatusHelp } from './exit-codes.js';

function optionLabel(name: string, o: OptionSpec): string {
  const value = o.type === 'string' ? ` ${o.valueName ?? 'VALUE'}` : '';
  return `${o.short ? `-${o.short}, ` : ''}--${name}${value}`;
}

function optionText(o: OptionSpec): string {
  const dflt = o.default !== undefined && o.type === 'string' ? ` (default ${String(o.default)})` : '';
  return `${o.description}${dflt}`;
}

/** The main help: each command by its name and one-line summary (its module need not be loaded). */
export function mainHelp(commands: readonly Pick<Command, 'name' | 'summary'>[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `gridsweep ${GRIDSWEEP_VERSION}: schedule parameter sweeps onto grids, simulated or real.`,
    '',
    'Usage: gridsweep COMMAND [OPTIONS] [ARGS]',
    '       gridsweep COMMAND --help   (or gridsweep help COMMAND)',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  --help     this help',
    '  --version  print the version',
    '',
    'Exit status:',
    ...exitStatusHelp(),
  ].join('\n');
}

export function commandHelp(c: Command): string {
  const lines = [`Usage: ${c.usage}`, '', c.summary];
  const shown = Object.entries(c.options).map(([name, o]) => [optionLabel(name, o), optionText(o)] as const);
  shown.push(['--help', 'this help']);
  const width = Math.max(...shown.map(([left]) => left.length));
  lines.push('', 'Options:', ...shown.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`));
  if (c.details) lines.push('', c.details);
  return lines.join('\n');
}

/** The README's CLI reference section body (between its markers). */
export function markdownReference(commands: readonly Command[]): string {
  const out: string[] = ['Exit status of every command:', '', '```', ...exitStatusHelp(), '```', ''];
  for (const c of commands) {
    out.push(`### \`gridsweep ${c.name}\``, '', `${c.summary}`, '', '```', `Usage: ${c.usage}`, '```', '');
    const entries = Object.entries(c.options);
    if (entries.length > 0) {
      out.push('| option | meaning |', '| --- | --- |');
      for (const [name, o] of entries) out.push(`| \`${optionLabel(name, o)}\` | ${optionText(o).replace(/\|/g, '\\|')} |`);
      out.push('');
    }
    if (c.details) out.push(c.details, '');
  }
  return out.join('\n').trimEnd();
}
