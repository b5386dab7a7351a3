// For MctEngine: the best two of a cluster front's "late" hosts, shared by the Works of one run-time profile.
// A host free only after a Work's inputs are ready ends that Work at its free time + the duration, whatever
// the ready time, so from a given position of the front on, Works of one profile rank the hosts identically.
// The engine scans that part once per (profile, first late position) during one pass over a cluster.
export class LateHostsMemo {
  /** Entries per profile: one per first late position 0…longest front. */
  readonly stride: number;
  /** The pass an entry was computed in (0: never); entries at profile * stride + first late position. */
  readonly pass: Int32Array;
  /** The best late host's end and host (-1: none), the second's end and host (-1: none). */
  readonly bestEndS: Float64Array;
  readonly bestHost: Int32Array;
  readonly secondEndS: Float64Array;
  readonly secondHost: Int32Array;
  private passCount = 0;

  constructor(profileCount: number, longestFront: number) {
    this.stride = longestFront + 1;
    const entries = profileCount * this.stride;
    this.pass = new Int32Array(entries);
    this.bestEndS = new Float64Array(entries);
    this.bestHost = new Int32Array(entries);
    this.secondEndS = new Float64Array(entries);
    this.secondHost = new Int32Array(entries);
  }

  /** A new pass: the entries of earlier passes (another cluster, or a front since changed) no longer hold. */
  nextPass(): number {
    return ++this.passCount;
  }
}
