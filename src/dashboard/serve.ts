// Keeps a dashboard open until the user interrupts (Ctrl-C), for the commands that start one.
import type { Dashboard } from './server.js';

/** Prints how to open the dashboard, then resolves once SIGINT or SIGTERM has closed it. */
export async function serveUntilInterrupted(dashboard: Dashboard, print: (line: string) => void = console.log): Promise<void> {
  print(`dashboard: ${dashboard.url}`);
  print('(open it in a browser on this machine; Ctrl-C to stop)');
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void dashboard.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
