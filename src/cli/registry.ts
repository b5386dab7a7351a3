// Loads sub-command modules by name.
import { COMMAND_LOADERS, COMMAND_NAMES } from './commands-list.js';
import type { Command } from './command.js';

export async function loadCommand(name: string): Promise<Command | undefined> {
  const load = Object.hasOwn(COMMAND_LOADERS, name) ? COMMAND_LOADERS[name as keyof typeof COMMAND_LOADERS] : undefined;
  return load ? (await load()).default : undefined;
}

export async function loadAllCommands(): Promise<Command[]> {
  return Promise.all(COMMAND_NAMES.map(async (n) => (await loadCommand(n))!));
}
