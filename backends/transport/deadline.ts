// Deadlines for remote operations: past its deadline an operation is abandoned and its host suspected,
// whether or not the operation ever settles (a hung host keeps its TCP connection open and answers
// nothing, so without a deadline an operation on it waits forever).
import { EndpointDownError } from './endpoint.js';
import type { Deadlines } from '../../src/realgrid/deadlines.js';
import { setLongTimeout, type LongTimeout } from '../../src/util/long-timeout.js';

export { DEFAULT_DEADLINES, type Deadlines } from '../../src/realgrid/deadlines.js';

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
  let timer: LongTimeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setLongTimeout(() => {
      expired();
      reject(new EndpointDownError(message));
    }, seconds * 1000);
  });
  return Promise.race([op, late]).finally(() => timer?.clear());
}
