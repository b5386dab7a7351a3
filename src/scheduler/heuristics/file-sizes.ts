// Files' estimated sizes by file id, kept from one plan to the next so that a plan reads a flat array instead
// of every FileSpec object its Works name (objects spread over the heap: a cache miss each).
//
// Exactness: a FileSpec is never changed in place, only replaced by a new object (strategies/quality.ts:
// observed output sizes make new specifications), so an entry read from files[f] holds as long as files[f]
// is that very object. A lookup compares the pointers, which lie side by side in the files array.
import type { FileSpec } from '../../model/application.js';

export class FileSizes {
  /** Per file id, the specification its entry was read from (undefined: none yet). */
  private readonly specs: (FileSpec | undefined)[] = [];
  private bytes: Float64Array = new Float64Array(0);

  /** files[f].estSizeBytes, read from the object only when it is not the one read last time. */
  estSizeBytes(files: readonly FileSpec[], f: number): number {
    const spec = files[f];
    if (spec === undefined || this.specs[f] !== spec) return this.enter(spec, f);
    return this.bytes[f]!;
  }

  private enter(spec: FileSpec | undefined, f: number): number {
    // A file id out of range fails here as reading files[f].estSizeBytes did (a TypeError).
    const size = spec!.estSizeBytes;
    // An id that is no index into an array: read every time.
    if (!Number.isInteger(f) || f < 0) return size;
    if (f >= this.bytes.length) {
      const length = Math.max(f + 1, 2 * this.bytes.length, 64);
      const grown = new Float64Array(length);
      grown.set(this.bytes);
      this.bytes = grown;
      // Filled up to its length without holes: a sparse array would fall back to a dictionary, a hash
      // lookup per file.
      while (this.specs.length < length) this.specs.push(undefined);
    }
    this.specs[f] = spec;
    this.bytes[f] = size;
    return size;
  }
}
