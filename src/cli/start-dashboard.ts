// Starts the live dashboard for a command. A port the user asked for that cannot be had is bad usage
// (exit 2, with the fix), not an internal error.
// The dashboard (its server, file watching, websockets) is loaded only when one starts: a command that
// merely offers --dashboard does not pay for loading it.
import type { Dashboard, DashboardOptions } from '../dashboard/index.js';
import { numberOption, stringOption } from './args.js';
import { UsageError, type CommandArgs, type OptionSpec } from './command.js';

export async function startCommandDashboard(options: DashboardOptions): Promise<Dashboard> {
  const { startDashboard } = await import('../dashboard/index.js');
  try {
    return await startDashboard(options);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--port ${options.port}: that port is in use; give another one, or no --port for a free one`);
    if (code === 'EADDRNOTAVAIL') throw new UsageError(`--host ${options.host}: no such address on this machine; give a loopback address such as 127.0.0.1`);
    if (code === 'EACCES') throw new UsageError(`--port ${options.port}: not allowed to listen on that port; give one above 1023, or no --port for a free one`);
    throw err;
  }
}

/** The --port a command's dashboard listens on; 0 (the default) lets the system pick a free one. */
export function dashboardPort(args: CommandArgs): number {
  return numberOption(args, 'port', 0, { min: 0, max: 65535, integer: true });
}

/** The loopback addresses --host takes: 127.0.0.0/8, ::1, localhost (the server checks the same). */
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;

/** How to reach the dashboard from another machine, for the help of every command that starts one. */
export const DASHBOARD_TUNNEL_HINT = [
  'The dashboard listens on loopback only (--host ADDR, default 127.0.0.1). On a cluster\'s login node,',
  'reach it from your own machine through an SSH tunnel: give --port 8080, run',
  '`ssh -L 8080:localhost:8080 login-node` on your machine, and open the printed URL with localhost:8080',
  'as its address.',
].join('\n');

/** The --host option of the commands that start a dashboard. */
export const DASHBOARD_HOST_OPTION: OptionSpec = {
  type: 'string',
  description: 'dashboard address, a loopback one (default 127.0.0.1); from another machine use an SSH tunnel (ssh -L 8080:localhost:8080 login-node)',
  valueName: 'ADDR',
};

/** --host: a loopback address; any other is refused, with the tunnel that reaches loopback from afar. */
export function dashboardHost(args: CommandArgs): string {
  const host = stringOption(args, 'host') ?? '127.0.0.1';
  if (!LOOPBACK.test(host)) {
    throw new UsageError(
      `--host ${host}: the dashboard listens on loopback only (127.0.0.1 to 127.255.255.255, ::1, localhost): its page is plain HTTP, guarded by a token. From another machine, use an SSH tunnel: ssh -L 8080:localhost:8080 login-node, and --port 8080`,
    );
  }
  return host;
}

/** --port and --host together, as startCommandDashboard takes them. */
export function dashboardAddress(args: CommandArgs): { port: number; host: string } {
  return { port: dashboardPort(args), host: dashboardHost(args) };
}
