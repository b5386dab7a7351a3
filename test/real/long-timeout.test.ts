// setLongTimeout (src/util/long-timeout.ts): a delay past 2^31 - 1 ms fires when due, not after 1 ms as
// Node's own timer does. Fake timers stand for the month of waiting; they overflow as Node does (checked
// first, so the test would notice a fake that did not).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, setLongTimeout } from '../../src/util/long-timeout.js';

const MONTH_MS = 30 * 24 * 3600 * 1000;

describe('setLongTimeout', () => {
  afterEach(() => vi.useRealTimers());

  it('fires a month later, where setTimeout fires at once', () => {
    vi.useFakeTimers();
    const fired: string[] = [];
    setTimeout(() => fired.push('setTimeout'), MONTH_MS);
    setLongTimeout(() => fired.push('long'), MONTH_MS);
    vi.advanceTimersByTime(10);
    expect(fired).toEqual(['setTimeout']);
    vi.advanceTimersByTime(MONTH_MS - 20);
    expect(fired).toEqual(['setTimeout']);
    vi.advanceTimersByTime(20);
    expect(fired).toEqual(['setTimeout', 'long']);
  });

  it('fires a short delay as setTimeout does, and never for Infinity', () => {
    vi.useFakeTimers();
    const fired: number[] = [];
    setLongTimeout(() => fired.push(1), 500);
    setLongTimeout(() => fired.push(2), MAX_TIMER_MS);
    setLongTimeout(() => fired.push(3), Infinity);
    vi.advanceTimersByTime(499);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([1]);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(fired).toEqual([1, 2]);
    vi.advanceTimersByTime(10 * MONTH_MS);
    expect(fired).toEqual([1, 2]);
  });

  it('is cancelled by clear, in its first step or a later one', () => {
    vi.useFakeTimers();
    const fired: string[] = [];
    setLongTimeout(() => fired.push('early'), 1000).clear();
    const late = setLongTimeout(() => fired.push('late'), MONTH_MS);
    vi.advanceTimersByTime(MAX_TIMER_MS + 5);
    late.clear();
    vi.advanceTimersByTime(MONTH_MS);
    expect(fired).toEqual([]);
  });
});
