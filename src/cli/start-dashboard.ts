// Starts the live dashboard for a command. A port the user asked for that cannot be had is bad usage
// (exit 2, with the fix), not an internal error.
import { startDashboard, type Dashboard, type DashboardOptions } from '../dashboard/index.js';
import { numberOption } from './args.js';
import { UsageError, type CommandArgs } from './command.js';

export async function startCommandDashboard(options: DashboardOptions): Promise<Dashboard> {
  try {
    return await startDashboard(options);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--port ${options.port}: that port is in use; give another one, or no --port for a free one`);
    if (code === 'EACCES') throw new UsageError(`--port ${options.port}: not allowed to listen on that port; give one above 1023, or no --port for a free one`);
    throw err;
  }
}

/** The --port a command's dashboard listens on; 0 (the default) lets the system pick a free one. */
export function dashboardPort(args: CommandArgs): number {
  return numberOption(args, 'port', 0, { min: 0, max: 65535, integer: true });
}
