// Deadlines of remote operations (backends/transport/deadline.ts).
import { describe, expect, it } from 'vitest';
import { DEFAULT_DEADLINES, transferDeadlineS, withDeadline } from '../../backends/transport/deadline.js';
import { EndpointDownError } from '../../backends/transport/endpoint.js';

describe('deadlines', () => {
  it('a transfer gets the command deadline plus four times what it should take', () => {
    const d = { ...DEFAULT_DEADLINES, commandS: 10, assumedBandwidthBps: 1000 };
    expect(transferDeadlineS(d, 5000, 2500)).toBe(10 + 8);
    // Before the link is measured, the assumed bandwidth.
    expect(transferDeadlineS(d, 5000, undefined)).toBe(10 + 20);
  });

  it('an operation that never settles is abandoned at its deadline, after dropping what it runs on', async () => {
    let dropped = false;
    const never = new Promise<number>(() => undefined);
    const started = Date.now();
    await expect(withDeadline(never, 0.2, 'h went down: no answer', () => (dropped = true))).rejects.toThrow(EndpointDownError);
    expect(dropped).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('an operation that settles in time is untouched, and so is one without a deadline', async () => {
    let dropped = false;
    await expect(withDeadline(Promise.resolve(7), 5, 'x', () => (dropped = true))).resolves.toBe(7);
    await expect(withDeadline(Promise.reject(new Error('exit 1')), 5, 'x', () => (dropped = true))).rejects.toThrow('exit 1');
    await expect(withDeadline(Promise.resolve(8), Infinity, 'x', () => (dropped = true))).resolves.toBe(8);
    expect(dropped).toBe(false);
  });

  it('a deadline longer than Node keeps in a timer (24.8 days) is not over at once', async () => {
    // 60 GB at the assumed 100 kB/s: 2.4 M s. Node's own timer would have fired after 1 ms.
    const seconds = transferDeadlineS(DEFAULT_DEADLINES, 60e9, undefined);
    expect(seconds).toBeGreaterThan(2 ** 31 / 1000);
    let dropped = false;
    const outcome = await Promise.race([
      withDeadline(new Promise<string>(() => undefined), seconds, 'late', () => (dropped = true)).catch((err: Error) => `rejected: ${err.message}`),
      new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 100)),
    ]);
    expect(outcome).toBe('still waiting');
    expect(dropped).toBe(false);
  });
});
