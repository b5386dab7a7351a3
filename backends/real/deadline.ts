// Deadlines for remote operations: past its deadline an operation is abandoned and its host suspected,
// whether or not the operation ever settles (a hung host keeps its TCP connection open and answers
// nothing, so without a deadline an operation on it waits forever).
import { EndpointDownError } from './endpoint.js';

/** What the real grid file says about deadlines (`"deadlines"`), in seconds. */
export interface Deadlines {
  /** A short command on a host (create or remove a directory, hash outputs, kill a task). */
  readonly commandS: number;
  /** The load probe, which is also the heartbeat: a host that misses it is suspected of hanging. */
  readonly probeS: number;
  /** A connection's set-up: the SSH handshake, then a first command through the login shell. */
  readonly loginS: number;
  /** The bandwidth assumed for a transfer before the link's has been measured, bytes/s. */
  readonly assumedBandwidthBps: number;
}

export const DEFAULT_DEADLINES: Deadlines = { commandS: 60, probeS: 15, loginS: 30, assumedBandwidthBps: 100_000 };

/** A transfer's deadline: the command deadline as slack, plus four times what it should take. */
export function transferDeadlineS(d: Deadlines, sizeBytes: number, measuredBandwidthBps: number | undefined): number {
  const bandwidth = measuredBandwidthBps !== undefined && measuredBandwidthBps > 0 ? measuredBandwidthBps : d.assumedBandwidthBps;
  return d.commandS + (4 * sizeBytes) / bandwidth;
}

/**
 * Settles as `op` does, or rejects with EndpointDownError(`message`) after `seconds` (calling `expired`
 * first, to drop what `op` runs on). Infinity: no deadline.
 */
export function withDeadline<T>(op: Promise<T>, seconds: number, message: string, expired: () => void): Promise<T> {
  if (!Number.isFinite(seconds)) return op;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      expired();
      reject(new EndpointDownError(message));
    }, seconds * 1000);
  });
  return Promise.race([op, late]).finally(() => clearTimeout(timer));
}
