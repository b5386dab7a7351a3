// The progress line of simulate, experiment and demo: its text, and that it writes only to a terminal.
// (The CLI shows it only when stderr is a TTY; spawned tests have pipes, so the line is tested here on a
// stand-in stream, and the CLI tests check that pipes get nothing.)
import { describe, expect, it } from 'vitest';
import { formatDuration, formatMatrixProgress, formatSimulationProgress, progressLine } from '../../src/cli/progress-line.js';

function fakeStream(isTTY: boolean): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  return { stream: { isTTY, write: (s: string) => (written.push(s), true) } as unknown as NodeJS.WriteStream, written };
}

describe('progress line', () => {
  it('simulation: simulated time, Works done, rate and ETA, by hand', () => {
    // 120 of 40,000 Works in 4 s of wall time: 30 Works/s; 39,880 left / 30 = 1,329.33 s = 22 min 9 s.
    expect(formatSimulationProgress({ nowS: 1234.4, worksDone: 120, worksTotal: 40_000 }, 4000)).toBe('simulated 1,234 s, 120/40,000 Works done, 30.0 Works/s, ETA 22 min 9 s');
    // 30,000 done in 100 s: 300 Works/s (shown without decimals from 100 up); 10,000 left: 33.3 s -> 33 s.
    expect(formatSimulationProgress({ nowS: 90_000, worksDone: 30_000, worksTotal: 40_000 }, 100_000)).toBe('simulated 90,000 s, 30,000/40,000 Works done, 300 Works/s, ETA 33 s');
    // Nothing done yet: no rate, no ETA (it would be infinite).
    expect(formatSimulationProgress({ nowS: 0, worksDone: 0, worksTotal: 10 }, 500)).toBe('simulated 0 s, 0/10 Works done');
  });

  it('durations: seconds, minutes, hours (rounded to the second first)', () => {
    expect(formatDuration(59.4)).toBe('59 s');
    expect(formatDuration(59.6)).toBe('1 min 0 s');
    expect(formatDuration(3599)).toBe('59 min 59 s');
    expect(formatDuration(3 * 3600 + 20 * 60 + 59)).toBe('3 h 20 min');
  });

  it('experiment matrix: done/total, cached, failed only when some failed', () => {
    expect(formatMatrixProgress({ done: 12, total: 40, cached: 3, failed: 0 })).toBe('12/40 runs (3 cached)');
    expect(formatMatrixProgress({ done: 12, total: 40, cached: 3, failed: 1 })).toBe('12/40 runs (3 cached, 1 failed)');
  });

  it('on a terminal: rewritten in place, a shorter line padded over the longer one, a newline at the end', () => {
    const { stream, written } = fakeStream(true);
    const line = progressLine(stream);
    line.update('abcdef');
    line.update('xy');
    line.done();
    line.done(); // a second done() writes nothing more
    expect(written).toEqual(['\rabcdef', '\rxy    ', '\n']);
  });

  it('nothing at all when the stream is not a terminal, or when turned off (--quiet)', () => {
    for (const [isTTY, enabled] of [[false, true], [true, false]] as const) {
      const { stream, written } = fakeStream(isTTY);
      const line = progressLine(stream, enabled);
      line.update('abc');
      line.done();
      expect(written).toEqual([]);
    }
  });
});
