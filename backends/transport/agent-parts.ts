// Files of any size through the agent, a part at a time: for hosts where SFTP cannot work (a login shell
// that prints on standard output, when sshd starts SFTP's server through it). Slower than SFTP, which
// keeps several requests in flight: one part per round trip.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import type { AgentSession } from './agent-session.js';

/** A part's size: 1 MiB, about 1.4 MB of JSON on the wire. */
export const PART_BYTES = 1024 * 1024;

/** Copies a local file to `remotePath` on the host (through remotePath.part, renamed after the last part). */
export async function uploadInParts(agent: AgentSession, localPath: string, remotePath: string): Promise<void> {
  const fd = openSync(localPath, 'r');
  try {
    const buffer = Buffer.alloc(PART_BYTES);
    for (let offset = 0, first = true; ; first = false) {
      const n = readSync(fd, buffer, 0, PART_BYTES, offset);
      offset += n;
      const more = n === PART_BYTES;
      await agent.write(remotePath, buffer.subarray(0, n), { append: !first, more });
      if (!more) return;
    }
  } finally {
    closeSync(fd);
  }
}

/** Copies `remotePath` on the host to a local file. */
export async function downloadInParts(agent: AgentSession, remotePath: string, localPath: string): Promise<void> {
  const fd = openSync(localPath, 'w');
  try {
    for (let offset = 0; ; ) {
      const { data, sizeBytes } = await agent.readPart(remotePath, offset, PART_BYTES);
      writeSync(fd, data);
      offset += data.length;
      // At the file's end, or it shrank under us: what there was is all there is.
      if (offset >= sizeBytes || data.length === 0) return;
    }
  } finally {
    closeSync(fd);
  }
}
