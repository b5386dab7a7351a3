// The measurements one stretch of behaviour history yields: sample number k is taken at startS + k·P and
// reads values[(offset + k) mod n]. Stretches attached alike (the same series at the same time with the same
// offset, e.g. hosts of one behaviour file added together) share one strip, so that each Sample object is
// made once however many resources report it and however often they are asked. Only samples that some
// window asks for are made: a strip asked once an hour makes the hour's last few, not all 720. The last
// window is handed out again to whoever asks for the same samples next (resources attached alike asking
// within one sample period): the same array, so that a consumer that remembers arrays need not look
// inside (windows are read-only to everyone).
import type { Sample } from '../../src/interfaces/information.js';
import type { HistoryEntry } from './grid-state.js';
import type { Attachment } from './rate-series.js';

/** Sample number k of a series attached as `attachment`, reading `values`. */
export function sampleAt(attachment: Attachment, values: Float64Array, k: number): Sample {
  const { startS, offset, series } = attachment;
  return { timeS: startS + k * series.periodS, value: values[(offset + k) % series.length]! };
}

/** The samples of one attached series, the newest of them kept. */
export class SampleStrip {
  /** Sample number of samples[0]. */
  private first = 0;
  private samples: Sample[] = [];
  /** The longest window asked for: that many of the newest samples are kept, older ones are let go. */
  private longest = 0;
  /** The last window made, samples number lastFrom to lastTo (lastFrom -1: none yet). */
  private lastFrom = -1;
  private lastTo = -1;
  private lastWindow: Sample[] = [];

  constructor(
    private readonly attachment: Attachment,
    private readonly values: Float64Array,
  ) {}

  /** Samples number `from` to `to` (0 ≤ from ≤ to), oldest first (the last array made when it holds those). */
  window(from: number, to: number): Sample[] {
    this.longest = Math.max(this.longest, to - from + 1);
    // The same samples as last time (the same values at the same times): the same array.
    if (from === this.lastFrom && to === this.lastTo) return this.lastWindow;
    this.lastFrom = from;
    this.lastTo = to;
    this.lastWindow = this.makeWindow(from, to);
    return this.lastWindow;
  }

  private makeWindow(from: number, to: number): Sample[] {
    if (from > this.first + this.samples.length) {
      // Nothing kept is wanted any more (the resource was not asked about for a while): start afresh at
      // `from` rather than make every sample in between, so a long quiet stretch costs nothing.
      this.samples = [];
      this.first = from;
    }
    for (let k = this.first + this.samples.length; k <= to; k++) this.samples.push(sampleAt(this.attachment, this.values, k));
    if (from < this.first) {
      // Older than what is kept (a window longer than any before): the missing ones are made afresh.
      const window: Sample[] = [];
      for (let k = from; k <= to; k++) window.push(k >= this.first ? this.samples[k - this.first]! : sampleAt(this.attachment, this.values, k));
      return window;
    }
    const window = this.samples.slice(from - this.first, to - this.first + 1);
    this.forgetOld();
    return window;
  }

  /** Lets go of all but the `longest` newest samples once twice that many are kept. */
  private forgetOld(): void {
    const excess = this.samples.length - this.longest;
    if (excess <= this.longest) return;
    this.samples = this.samples.slice(excess);
    this.first += excess;
  }
}

/** Strips are shared among this many attachments at most; then sharing starts afresh (bounds the memory). */
const MAX_SHARED_STRIPS = 4096;

/** The strip of each current (open) stretch of history for one reading of it, shared when attached alike. */
export class SampleStrips {
  private readonly ofEntry = new WeakMap<HistoryEntry, SampleStrip>();
  private shared = new Map<Float64Array, Map<string, SampleStrip>>();
  private sharedCount = 0;

  of(entry: HistoryEntry, values: Float64Array): SampleStrip {
    let strip = this.ofEntry.get(entry);
    if (strip === undefined) {
      strip = this.sharedStrip(entry.attachment, values);
      this.ofEntry.set(entry, strip);
    }
    return strip;
  }

  /** A stretch has closed: it takes no new samples, and its strip is no longer needed for it. */
  forget(entry: HistoryEntry): void {
    this.ofEntry.delete(entry);
  }

  private sharedStrip(attachment: Attachment, values: Float64Array): SampleStrip {
    if (this.sharedCount >= MAX_SHARED_STRIPS) {
      this.shared = new Map();
      this.sharedCount = 0;
    }
    let strips = this.shared.get(values);
    if (strips === undefined) this.shared.set(values, (strips = new Map()));
    const key = `${attachment.startS}/${attachment.offset}`;
    let strip = strips.get(key);
    if (strip === undefined) {
      strips.set(key, (strip = new SampleStrip(attachment, values)));
      this.sharedCount++;
    }
    return strip;
  }
}
