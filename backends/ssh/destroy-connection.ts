// Closing an SSH connection at once, established or still being set up. (NodeSSH's dispose() only ends it
// politely: the socket stays open, and keeps this process alive, until a hung host answers.)
import type { NodeSSH } from 'node-ssh';

export function destroyConnection(ssh: NodeSSH): void {
  (ssh.connection as unknown as { destroy(): void } | null)?.destroy();
  ssh.dispose();
}
