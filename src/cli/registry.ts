// Loads sub-command modules by name (src/cli/commands/<name>.ts).
import { COMMAND_NAMES } from './commands-list.js';
import type { Command } from './command.js';

export async function loadCommand(name: string): Promise<Command | undefined> {
  if (!(COMMAND_NAMES as readonly string[]).includes(name)) return undefined;
  const mod = (await import(`./commands/${name}.js`)) as { default: Command };
  return mod.default;
}

export async function loadAllCommands(): Promise<Command[]> {
  return Promise.all(COMMAND_NAMES.map(async (n) => (await loadCommand(n))!));
}
