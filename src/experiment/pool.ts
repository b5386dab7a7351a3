// Executors for experiment jobs: in this thread (for an injected function), or on a pool of worker
// threads that each load a runner module. Both run jobs one per worker at a time, in submission order.
// A job's observer, when given, is told when the job starts and receives its run record in batches.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { executeJob, InputCache, type JobMessage, type JobResult, type RunOneFn } from './job.js';
import { RecordBatcher } from './record-batcher.js';
import { WORKER_YOUNG_GENERATION_MB } from '../util/young-generation.js';

export interface JobObserver {
  /** The job went to a worker. */
  started?(): void;
  /** Given: the run is recorded, and each batch of its events arrives here as a JSON array, all before the job settles. */
  records?(batchJson: string): void;
}

export interface Executor {
  readonly parallelism: number;
  /** Jobs running now. */
  readonly busy: number;
  run(job: JobMessage, observer?: JobObserver): Promise<JobResult>;
  close(): Promise<void>;
}

export class InlineExecutor implements Executor {
  readonly parallelism = 1;
  busy = 0;
  private readonly cache = new InputCache();
  constructor(private readonly runOne: RunOneFn) {}
  async run(job: JobMessage, observer?: JobObserver): Promise<JobResult> {
    this.busy++;
    observer?.started?.();
    const batcher = observer?.records ? new RecordBatcher((json) => observer.records?.(json)) : undefined;
    try {
      return await executeJob(job, this.runOne, this.cache, batcher?.sink);
    } finally {
      batcher?.flush();
      this.busy--;
    }
  }
  async close(): Promise<void> {}
}

const RUNNING_FROM_SOURCES = import.meta.url.endsWith('.ts');

/** The module URL of a sibling of this file, with the extension this file has (.ts from sources, .js built). */
export function siblingModule(name: string): string {
  return new URL(`./${name}${RUNNING_FROM_SOURCES ? '.ts' : '.js'}`, import.meta.url).href;
}

/** From sources (tests), a worker must first register tsx to load TypeScript; built, it loads NAME.js (a module beside this file). */
export function workerUrl(name = 'worker'): URL {
  const worker = siblingModule(name);
  if (!RUNNING_FROM_SOURCES) return new URL(worker);
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;
  const boot = `import { register } from ${JSON.stringify(api)}; register(); await import(${JSON.stringify(worker)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

export function defaultWorkerCount(): number {
  return availableParallelism();
}

interface Pending {
  readonly id: number;
  readonly job: JobMessage;
  readonly observer: JobObserver | undefined;
  readonly resolve: (r: JobResult) => void;
  readonly reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current?: Pending;
}

type WorkerReply = { ready: true } | { id: number; records: string } | { id: number; ok: true; result: JobResult } | { id: number; ok: false; message: string };

export class WorkerPool implements Executor {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private closed = false;
  private fatal: Error | undefined;

  constructor(
    private readonly runnerModule: string,
    readonly parallelism: number = defaultWorkerCount(),
  ) {
    if (!Number.isInteger(parallelism) || parallelism < 1) throw new Error(`worker count must be a whole number >= 1, got ${parallelism}`);
    for (let i = 0; i < parallelism; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(workerUrl(), {
        workerData: { runnerModule: this.runnerModule },
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      }), ready: false };
    slot.worker.on('message', (m: WorkerReply) => {
      if ('ready' in m) {
        slot.ready = true;
      } else if ('records' in m) {
        if (slot.current?.id === m.id) slot.current.observer?.records?.(m.records);
        return;
      } else {
        const p = slot.current;
        slot.current = undefined;
        if (p && p.id === m.id) {
          if (m.ok) p.resolve(m.result);
          else p.reject(new Error(m.message));
        }
      }
      this.pump();
    });
    slot.worker.on('error', (err) => {
      // A worker that dies before it is ready cannot load the runner: every job would fail the same way.
      if (!slot.ready) this.fail(new Error(`experiment worker failed to start: ${err.message}`));
      else slot.current?.reject(new Error(`experiment worker crashed: ${err.message}`));
      slot.current = undefined;
    });
    slot.worker.on('exit', () => {
      if (this.closed || this.fatal) return;
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots[i] = this.spawn();
    });
    return slot;
  }

  private fail(err: Error): void {
    this.fatal = err;
    for (const p of this.queue.splice(0)) p.reject(err);
    for (const s of this.slots) {
      s.current?.reject(err);
      s.current = undefined;
    }
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.current) continue;
      const p = this.queue.shift()!;
      slot.current = p;
      slot.worker.postMessage({ id: p.id, job: p.job, record: p.observer?.records !== undefined });
      p.observer?.started?.();
    }
  }

  get busy(): number {
    return this.slots.filter((s) => s.current !== undefined).length;
  }

  run(job: JobMessage, observer?: JobObserver): Promise<JobResult> {
    if (this.fatal) return Promise.reject(this.fatal);
    if (this.closed) return Promise.reject(new Error('worker pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, observer, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
