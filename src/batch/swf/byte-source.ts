// Where the SWF reader's bytes come from: the file itself, or — when it starts with the gzip magic bytes
// 1f 8b, whatever its name — the file decompressed as a stream. Both are read synchronously, a bounded
// piece at a time, so memory does not grow with the file.
//
// Why a worker thread: node's zlib has no documented synchronous streaming API. The *Sync functions take a
// whole buffer, and the internal `_processChunk` closes its handle after one call (checked on node 20),
// so it cannot carry inflate state from one piece to the next. So a worker thread runs the ordinary
// streaming gunzip (fs.createReadStream → zlib.createGunzip, which also reads multi-member files) and hands
// the decompressed bytes over through a fixed SharedArrayBuffer slot; the reader blocks in Atomics.wait
// until the slot is full. The worker blocks likewise until the slot is taken, so at most one slot plus
// the streams' own buffers are in memory. No process is started.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

export interface ByteSource {
  /** Reads up to `length` bytes into `into` at `offset`; 0 at the end. Throws DecompressionError. */
  read(into: Buffer, offset: number, length: number): number;
  close(): void;
  /** A size hint for the reader's first buffer, in bytes. */
  readonly sizeHintBytes: number;
  readonly gzip: boolean;
}

/** The gzip data is corrupt or cut short; `message` says which, in zlib's words too. */
export class DecompressionError extends Error {
  override readonly name = 'DecompressionError';
  constructor(message: string, readonly truncated: boolean) {
    super(message);
  }
}

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** Opens `path` (throws the fs error if it cannot), choosing gzip by the first two bytes. */
export function openByteSource(path: string): ByteSource {
  const fd = openSync(path, 'r');
  const magic = Buffer.alloc(2);
  let n: number;
  try {
    n = readSync(fd, magic, 0, 2, 0);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  if (n === 2 && magic[0] === GZIP_MAGIC[0] && magic[1] === GZIP_MAGIC[1]) {
    closeSync(fd);
    return new GzipSource(path);
  }
  return new FileSource(fd);
}

class FileSource implements ByteSource {
  readonly gzip = false;
  readonly sizeHintBytes: number;
  private closed = false;

  constructor(private readonly fd: number) {
    this.sizeHintBytes = fstatSync(fd).size;
  }

  read(into: Buffer, offset: number, length: number): number {
    return readSync(this.fd, into, offset, length, null);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

// The slot's control words: [state, length]. The worker writes FULL/END/FAILED; the reader EMPTY/CLOSED.
const EMPTY = 0;
const FULL = 1;
const END = 2;
const FAILED = 3;
const CLOSED = 4;
const SLOT_BYTES = 256 * 1024;
const CONTROL_BYTES = 8;
/** How long the reader waits for one slot before deciding the worker is gone. */
const STALL_MS = 120_000;

// Plain CommonJS, evaluated in the worker (so it runs the same from TypeScript sources and from dist/).
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const zlib = require('node:zlib');
const ctl = new Int32Array(workerData.shared, 0, 2);
const slot = new Uint8Array(workerData.shared, ${CONTROL_BYTES});
let filled = 0;
let finished = false;
// Only an empty slot is handed over: if the reader closed meanwhile, the worker stops here.
function hand(state, length) {
  Atomics.store(ctl, 1, length);
  if (Atomics.compareExchange(ctl, 0, ${EMPTY}, state) !== ${EMPTY}) process.exit(0);
  Atomics.notify(ctl, 0);
}
function waitTaken() {
  while (Atomics.load(ctl, 0) === ${FULL}) Atomics.wait(ctl, 0, ${FULL});
  if (Atomics.load(ctl, 0) === ${CLOSED}) process.exit(0);
}
function flush() {
  if (filled === 0) return;
  hand(${FULL}, filled);
  waitTaken();
  filled = 0;
}
function put(chunk) {
  let i = 0;
  while (i < chunk.length) {
    const n = Math.min(chunk.length - i, slot.length - filled);
    slot.set(chunk.subarray(i, i + n), filled);
    filled += n;
    i += n;
    if (filled === slot.length) flush();
  }
}
function fail(err) {
  if (finished) return;
  finished = true;
  flush();
  const text = Buffer.from(JSON.stringify({ message: String(err && err.message || err), code: err && err.code || '' }));
  slot.set(text.subarray(0, slot.length));
  hand(${FAILED}, Math.min(text.length, slot.length));
}
process.on('uncaughtException', fail);
const input = fs.createReadStream(workerData.path, { highWaterMark: 64 * 1024 });
const gunzip = zlib.createGunzip({ chunkSize: 64 * 1024 });
input.on('error', fail);
gunzip.on('error', fail);
gunzip.on('data', put);
gunzip.on('end', () => {
  if (finished) return;
  finished = true;
  flush();
  hand(${END}, 0);
});
input.pipe(gunzip);
`;

class GzipSource implements ByteSource {
  readonly gzip = true;
  readonly sizeHintBytes = Infinity;
  private readonly ctl: Int32Array;
  private readonly slot: Uint8Array;
  private readonly worker: Worker;
  private at = 0;
  private left = 0;
  private done = false;
  private closed = false;

  constructor(path: string) {
    const shared = new SharedArrayBuffer(CONTROL_BYTES + SLOT_BYTES);
    this.ctl = new Int32Array(shared, 0, 2);
    this.slot = new Uint8Array(shared, CONTROL_BYTES);
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, shared } });
    this.worker.unref();
    // Failures travel through the slot; this only keeps an unexpected one from being unhandled.
    this.worker.on('error', () => undefined);
  }

  read(into: Buffer, offset: number, length: number): number {
    if (this.left === 0 && !this.take()) return 0;
    const n = Math.min(length, this.left);
    into.set(this.slot.subarray(this.at, this.at + n), offset);
    this.at += n;
    this.left -= n;
    if (this.left === 0) {
      Atomics.store(this.ctl, 0, EMPTY);
      Atomics.notify(this.ctl, 0);
    }
    return n;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    Atomics.store(this.ctl, 0, CLOSED);
    Atomics.notify(this.ctl, 0);
    void this.worker.terminate();
  }

  /** Waits for the worker's next slot; false at the end of the data. */
  private take(): boolean {
    if (this.done || this.closed) return false;
    for (;;) {
      const state = Atomics.load(this.ctl, 0);
      if (state === FULL) {
        this.at = 0;
        this.left = Atomics.load(this.ctl, 1);
        return true;
      }
      if (state === END) {
        this.done = true;
        return false;
      }
      if (state === FAILED) {
        this.done = true;
        const { message, code } = JSON.parse(Buffer.from(this.slot.subarray(0, Atomics.load(this.ctl, 1))).toString('utf8')) as { message: string; code: string };
        const truncated = code === 'Z_BUF_ERROR' || /unexpected end/i.test(message);
        throw new DecompressionError(truncated ? `the gzip data ends early (zlib: ${message})` : `the gzip data is corrupt (zlib: ${message}${code === '' ? '' : `, ${code}`})`, truncated);
      }
      if (Atomics.wait(this.ctl, 0, EMPTY, STALL_MS) === 'timed-out') {
        this.done = true;
        throw new DecompressionError(`the gzip decompressor gave no data for ${STALL_MS / 1000} s`, false);
      }
    }
  }
}
