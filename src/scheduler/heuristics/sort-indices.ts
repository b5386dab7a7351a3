// A radix sort of non-negative integer indices, for the MctEngine's lazy randomized draw.
/**
 * Sorts the first `count` entries of `a` (non-negative) increasingly, a byte at a time (LSD radix sort through
 * `scratch`, as long as `a`), and returns the array holding them: `a` or `scratch`. Several times faster than
 * TypedArray sort on the few hundred indices the lazy draw sorts per placement.
 */
export function sortIndices(a: Int32Array, count: number, scratch: Int32Array): Int32Array {
  let max = 0;
  for (let q = 0; q < count; q++) if (a[q]! > max) max = a[q]!;
  const counts = radixCounts;
  let from = a;
  let to = scratch;
  for (let shift = 0; shift < 32 && (shift === 0 || max >>> shift > 0); shift += 8) {
    counts.fill(0);
    for (let q = 0; q < count; q++) counts[(from[q]! >>> shift) & 255]!++;
    let sum = 0;
    for (let d = 0; d < 256; d++) {
      const k = counts[d]!;
      counts[d] = sum;
      sum += k;
    }
    for (let q = 0; q < count; q++) to[counts[(from[q]! >>> shift) & 255]!++] = from[q]!;
    const t = from;
    from = to;
    to = t;
  }
  return from;
}
const radixCounts = new Int32Array(256);
