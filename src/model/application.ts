// The application model (Berman et al. 1999, §3, §7.2.2): independent tasks ("Works") reading and writing Files.

export type FileId = number;
export type WorkId = number;

/** A datum a task reads or writes. `sizeBytes` is what the simulator moves; `estSizeBytes` is what the scheduler believes. */
export interface FileSpec {
  readonly id: FileId;
  readonly name: string;
  readonly sizeBytes: number;
  readonly estSizeBytes: number;
}

/**
 * One task. `runTimeS[a]` is the real run time on architecture `a` at 100 % CPU availability (the simulator
 * uses it); `estRunTimeS[a]` is the user's estimate (the scheduler uses it).
 */
export interface WorkSpec {
  readonly id: WorkId;
  readonly inputs: readonly FileId[];
  readonly outputs: readonly FileId[];
  readonly runTimeS: readonly number[];
  readonly estRunTimeS: readonly number[];
}

/** A parsed application description: files indexed by id (0..n-1), works indexed by id (0..m-1). */
export interface Application {
  readonly version: string;
  readonly files: readonly FileSpec[];
  readonly works: readonly WorkSpec[];
}

/** Number of architectures the application describes (every Work has the same count). */
export function architectureCount(app: Application): number {
  return app.works.length === 0 ? 0 : app.works[0]!.runTimeS.length;
}
