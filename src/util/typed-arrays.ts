// Growing the typed arrays that hot loops keep instead of arrays of objects.

/** A typed array of the same kind twice as long, its values copied to the front. */
export function doubled<T extends Uint8Array | Int32Array | Float64Array>(a: T): T {
  const b = new (a.constructor as new (length: number) => T)(2 * a.length);
  b.set(a);
  return b;
}
