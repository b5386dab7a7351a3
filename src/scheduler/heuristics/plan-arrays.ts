// The typed arrays of one plan's MctEngine, kept for the next plan. An engine needs a dozen arrays of
// Works × clusters; allocated afresh, each plan's are garbage once it ends, and they pile up until the
// collector's next full collection: about 1 MB per plan in the 20,000-task XSufferage study of
// bench/sim.bench.ts, whose peak memory they raised by tens of MB.
//
// An engine takes the arena when it starts and gives it back when it ends; the arrays it hands out are views
// of buffers that grow to the largest plan seen, filled as asked. An engine started while another holds the
// arena (a plan inside a plan: none today) gets arrays of its own.

type Kind = 'f64' | 'i32' | 'u8';
type ArrayOf<K extends Kind> = K extends 'f64' ? Float64Array : K extends 'i32' ? Int32Array : Uint8Array;

export class PlanArrays {
  private static shared: PlanArrays | undefined = new PlanArrays();
  private readonly buffers: Record<Kind, (Float64Array | Int32Array | Uint8Array)[]> = { f64: [], i32: [], u8: [] };
  private readonly used: Record<Kind, number> = { f64: 0, i32: 0, u8: 0 };

  /** The shared arena if it is free, else one of its own. */
  static take(): PlanArrays {
    const arena = PlanArrays.shared ?? new PlanArrays();
    PlanArrays.shared = undefined;
    arena.used.f64 = arena.used.i32 = arena.used.u8 = 0;
    return arena;
  }

  /** The engine is done with every array the arena gave it. */
  static give(arena: PlanArrays): void {
    PlanArrays.shared = arena;
  }

  float64(length: number, fill = 0): Float64Array {
    return this.next('f64', length, fill);
  }

  int32(length: number, fill = 0): Int32Array {
    return this.next('i32', length, fill);
  }

  uint8(length: number, fill = 0): Uint8Array {
    return this.next('u8', length, fill);
  }

  private next<K extends Kind>(kind: K, length: number, fill: number): ArrayOf<K> {
    const list = this.buffers[kind];
    const k = this.used[kind]++;
    let buffer = list[k];
    if (buffer === undefined || buffer.length < length) {
      buffer = kind === 'f64' ? new Float64Array(length) : kind === 'i32' ? new Int32Array(length) : new Uint8Array(length);
      list[k] = buffer;
    }
    const view = buffer.subarray(0, length) as ArrayOf<K>;
    view.fill(fill);
    return view;
  }
}
