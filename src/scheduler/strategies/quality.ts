// Quality of information (Berman et al. 1999, §5.2.2): what the scheduler believes a Work's run times and a File's size
// are. The Application carries both the real values (what the simulator uses) and the user's estimates, so
// every mode is a view over it and the scheduler never looks at a backend:
//  - estimates       the user's estimates (estRunTimeS, estSizeBytes), as given;
//  - exact           the real values (runTimeS, sizeBytes): 100 % accurate information, simulation only;
//  - noisy           the real values with a bounded relative error: × (1 + u), u uniform in ±noiseBound,
//                    drawn once per Work and architecture and per File, from the run's seeded generator;
//  - output-unknown  the user's estimates, except that output sizes are not known in advance: each is
//                    estimated as the mean size of the outputs already produced (0 before the first one);
//                    an output already produced is known exactly.
// How resource performance is predicted from the measurements of port (3) is the ResourcePredictor.
import type { FileId, FileSpec, WorkSpec } from '../../model/application.js';
import type { Rng } from '../../util/rng.js';
import type { StrategyChoice, StrategyFamily } from './family.js';

export const QUALITIES = [
  { name: 'estimates', help: "the user's estimated run times and file sizes (the default)" },
  { name: 'exact', help: 'the real run times and file sizes (perfect information; simulation only)' },
  { name: 'noisy', help: 'real values with a seeded relative error bounded by noiseBound' },
  { name: 'output-unknown', help: 'output sizes unknown: estimated as the mean of the outputs produced so far' },
] as const satisfies readonly StrategyChoice[];
export type Quality = (typeof QUALITIES)[number]['name'];

export const RESOURCE_PREDICTORS = [
  { name: 'service', help: 'the forecasting service the backend provides (NWS battery in simulation, last value for real runs)' },
  { name: 'last-value', help: 'the last measured value of each series' },
  { name: 'nws', help: "NWS battery over each series' measurement history, kept incrementally by the scheduler" },
] as const satisfies readonly StrategyChoice[];
export type ResourcePredictor = (typeof RESOURCE_PREDICTORS)[number]['name'];

export const qualityFamily: StrategyFamily = {
  option: 'quality',
  section: '5.2.2',
  help: 'where run-time and file-size estimates come from',
  choices: QUALITIES,
  parameters: [{ name: 'noiseBound', help: 'noisy: the largest relative error of a believed run time or size (0.2 = ±20 %)' }],
};

export const resourcePredictorFamily: StrategyFamily = {
  option: 'resourcePredictor',
  section: '5.2.1',
  help: 'how host availability and link bandwidth/latency are predicted from measurements',
  choices: RESOURCE_PREDICTORS,
  parameters: [],
};

/** The scheduler's view of the application's numbers under one quality mode. */
export class Beliefs {
  /** The application's own array while no believed size differs from it; a copy from the first that does. */
  private fileList: readonly FileSpec[];
  private ownsFileList = false;
  private readonly isOutput: Uint8Array;
  private readonly observed = new Set<FileId>();
  private observedBytes = 0;
  private dirty = false;
  /** 'noisy': the factor of each Work's run time on each architecture. */
  private readonly workNoise = new Map<number, number[]>();
  private noise: Rng | undefined;

  /** `rng` is only drawn from in 'noisy' mode. */
  constructor(
    files: readonly FileSpec[],
    works: readonly WorkSpec[],
    private readonly quality: Quality,
    private readonly noiseBound: number,
    private readonly rng: () => Rng,
  ) {
    this.isOutput = new Uint8Array(files.length);
    for (const w of works) for (const f of w.outputs) if (f < files.length) this.isOutput[f] = 1;
    const noise = quality === 'noisy' ? this.noiseRng() : undefined;
    this.fileList = files;
    for (let i = 0; i < files.length; i++) {
      const f = files[i]!;
      let est = f.estSizeBytes;
      if (quality === 'exact') est = f.sizeBytes;
      else if (noise !== undefined) est = f.sizeBytes * this.factor(noise);
      else if (quality === 'output-unknown' && this.isOutput[f.id] === 1) est = 0;
      if (est !== f.estSizeBytes) this.ownFileList()[i] = { ...f, estSizeBytes: est };
    }
    if (noise !== undefined) for (const w of works) this.workNoise.set(w.id, w.runTimeS.map(() => this.factor(noise)));
  }

  /** The believed files as an array of this object's own, to change (a copy of one planFiles froze). */
  private ownFileList(): FileSpec[] {
    if (!this.ownsFileList || Object.isFrozen(this.fileList)) {
      this.fileList = this.fileList.slice();
      this.ownsFileList = true;
    }
    return this.fileList as FileSpec[];
  }

  private noiseRng(): Rng {
    this.noise ??= this.rng();
    return this.noise;
  }

  private factor(rng: Rng): number {
    return 1 + rng.uniform(-this.noiseBound, this.noiseBound);
  }

  /** Files with the believed estSizeBytes, indexed by id (updated in place as outputs are observed). */
  files(): readonly FileSpec[] {
    if (this.dirty) {
      this.dirty = false;
      const meanBytes = this.observed.size === 0 ? 0 : this.observedBytes / this.observed.size;
      const list = this.ownFileList();
      for (let f = 0; f < list.length; f++) {
        if (this.isOutput[f] === 0 || this.observed.has(f)) continue;
        list[f] = { ...list[f]!, estSizeBytes: meanBytes };
      }
    }
    return this.fileList;
  }

  /**
   * files(), frozen: the same array until a believed size changes (the next change copies it), so a plan's
   * set-up keeps what it derives from the files' sizes while it is handed the same array
   * (WorkIndex.outputBytes). Unless a mode changed some size, that is the application's own array, which is
   * readonly by its type: frozen in place rather than copied (8 bytes per file in a million-task sweep).
   */
  planFiles(): readonly FileSpec[] {
    const files = this.files();
    if (!Object.isFrozen(files)) Object.freeze(files);
    return files;
  }

  /** The Work with the believed estRunTimeS. */
  work(spec: WorkSpec): WorkSpec {
    if (this.quality === 'exact') return { ...spec, estRunTimeS: spec.runTimeS };
    if (this.quality !== 'noisy') return spec;
    let factors = this.workNoise.get(spec.id);
    if (factors === undefined) {
      const rng = this.noiseRng();
      factors = spec.runTimeS.map(() => this.factor(rng));
      this.workNoise.set(spec.id, factors);
    }
    return { ...spec, estRunTimeS: spec.runTimeS.map((t, a) => t * (factors[a] ?? 1)) };
  }

  /** A Work's outputs now exist: their sizes are known ('output-unknown' learns from them). */
  observeOutputs(spec: WorkSpec, realFiles: readonly FileSpec[]): void {
    if (this.quality !== 'output-unknown') return;
    for (const f of spec.outputs) {
      if (this.observed.has(f) || realFiles[f] === undefined) continue;
      this.observed.add(f);
      this.observedBytes += realFiles[f].sizeBytes;
      const list = this.ownFileList();
      list[f] = { ...list[f]!, estSizeBytes: realFiles[f].sizeBytes };
      this.dirty = true;
    }
  }
}
