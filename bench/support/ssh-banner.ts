// Waits until an sshd we started answers with its SSH banner (used by the loopback and namespace harnesses).
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

/** Resolves once address:port answers with an SSH banner; throws if `child` exits or 10 s pass. */
export async function waitForSshBanner(address: string, port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`sshd on ${address}:${port} exited with ${child.exitCode}: ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect({ host: address, port });
      s.setTimeout(1000);
      s.once('data', (d) => {
        s.destroy();
        resolve(d.toString().startsWith('SSH-'));
      });
      s.once('error', () => resolve(false));
      s.once('timeout', () => {
        s.destroy();
        resolve(false);
      });
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sshd on ${address}:${port} did not answer within 10 s: ${log()}`);
}
