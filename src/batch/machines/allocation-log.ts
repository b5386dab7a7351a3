// The allocation log: which nodes each job of a mesh or torus held, and when — what task mapping reads
// afterwards (`gridsweep map`), as PReMAS does it (Bunde and Leung 2015, §III-B). Text, one job a line in
// the order jobs started, after `#` header lines that name the machine:
//
//   # gridsweep allocation log 1
//   # machine: mesh:8x8x4
//   # cores-per-node: 1
//   # allocator: gen-alg
//   # policy: easy
//   # columns: job start_s end_s node… # pairwise_hops pieces bounding_box
//   17 0 3600 0 1 8 9 # 8 1 2x2x1
//
// What follows ` # ` on a job line is the allocation's quality (allocation-quality.ts), for reading; the
// reader ignores it.
// The writer writes to a temporary name and renames it when the run ends, so a failed run leaves nothing.
import { moveIntoPlace, temporaryName } from '../../util/atomic-write.js';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { InputError, unreadableFile } from '../../util/diagnostics.js';
import type { StartedJob } from '../job.js';
import { isTopology, MachineSpecError, parseMachine } from './registry.js';
import type { Topology } from './topology.js';

export const ALLOCATION_LOG_MAGIC = '# gridsweep allocation log 1';

export interface AllocationLogHeader {
  readonly topology: Topology;
  readonly coresPerNode: number;
  readonly allocator: string;
  readonly policy: string;
}

export interface LoggedAllocation {
  readonly job: number;
  readonly startS: number;
  readonly endS: number;
  /** Node indices, increasing. */
  readonly nodes: Int32Array;
  /** The line it was read from (1-based). */
  readonly line: number;
}

const FLUSH_BYTES = 1 << 16;

export class AllocationLogWriter {
  private readonly tmp: string;
  private readonly fd: number;
  private buffered = '';

  constructor(
    readonly path: string,
    header: AllocationLogHeader,
  ) {
    this.tmp = temporaryName(path);
    this.fd = openSync(this.tmp, 'w');
    this.buffered =
      [ALLOCATION_LOG_MAGIC, `# machine: ${header.topology.name}`, `# cores-per-node: ${header.coresPerNode}`, `# allocator: ${header.allocator}`, `# policy: ${header.policy}`, '# columns: job start_s end_s node… # pairwise_hops pieces bounding_box   (node i is at x + X·(y + Y·z))'].join('\n') + '\n';
  }

  write(s: StartedJob): void {
    let line = `${s.job.id} ${s.startS} ${s.endS}`;
    for (let i = 0; i < s.allocation.length; i += 2) line += ` ${s.allocation[i]}`;
    const q = s.quality;
    if (q !== undefined) line += ` # ${q.pairwiseHops} ${q.pieces} ${q.boundingBox.join('x')}`;
    this.buffered += line + '\n';
    if (this.buffered.length >= FLUSH_BYTES) this.flush();
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
    moveIntoPlace(this.tmp, this.path);
  }

  abort(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    rmSync(this.tmp, { force: true });
  }

  private flush(): void {
    if (this.buffered.length > 0) writeSync(this.fd, this.buffered);
    this.buffered = '';
  }
}

/** Reads a whole allocation log; every error names file:line:column. */
export function readAllocationLog(path: string): { header: AllocationLogHeader; jobs: LoggedAllocation[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw unreadableFile(path, 'the allocation log', err, { expected: 'a file written by `gridsweep trace --allocation-log FILE`' });
  }
  const lines = text.split('\n');
  if (lines[0]?.trimEnd() !== ALLOCATION_LOG_MAGIC) {
    throw fail(path, 1, 1, 'not a gridsweep allocation log', `a first line '${ALLOCATION_LOG_MAGIC}'`, 'write one with `gridsweep trace W.swf --machine mesh:8x8x4 --allocation-log FILE`');
  }
  const fields = new Map<string, { value: string; line: number; column: number }>();
  const jobs: LoggedAllocation[] = [];
  let topology: Topology | undefined;
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '').replace(/\s#.*$/, '');
    const lineNo = i + 1;
    if (raw.trim() === '') continue;
    if (raw.startsWith('#')) {
      const m = /^#\s*([a-z-]+):\s*(.*)$/.exec(raw);
      if (m !== null) fields.set(m[1]!, { value: m[2]!.trim(), line: lineNo, column: raw.indexOf(m[2]!) + 1 });
      continue;
    }
    if (topology === undefined) topology = headerTopology(path, fields);
    const tokens = raw.trim().split(/\s+/);
    const numbers = tokens.map(Number);
    const bad = numbers.findIndex((n, k) => !Number.isFinite(n) || (k !== 1 && k !== 2 && !Number.isInteger(n)));
    if (bad >= 0) throw fail(path, lineNo, columnOf(raw, bad), `'${tokens[bad]}' is not a ${bad === 0 ? 'job number' : 'node index'}`, 'job start_s end_s node…, all numbers');
    if (tokens.length < 4) throw fail(path, lineNo, 1, `a job line has ${tokens.length} fields`, 'job start_s end_s and at least one node');
    const nodes = Int32Array.from(numbers.slice(3));
    for (let k = 0; k < nodes.length; k++) {
      if (nodes[k]! < 0 || nodes[k]! >= topology.nodes || (k > 0 && nodes[k]! <= nodes[k - 1]!)) {
        throw fail(path, lineNo, columnOf(raw, k + 3), `node ${nodes[k]} is out of order or not on the machine`, `increasing node indices from 0 to ${topology.nodes - 1}`);
      }
    }
    jobs.push({ job: numbers[0]!, startS: numbers[1]!, endS: numbers[2]!, nodes, line: lineNo });
  }
  topology ??= headerTopology(path, fields);
  const cores = Number(fields.get('cores-per-node')?.value ?? '1');
  return { header: { topology, coresPerNode: Number.isInteger(cores) && cores >= 1 ? cores : 1, allocator: fields.get('allocator')?.value ?? '', policy: fields.get('policy')?.value ?? '' }, jobs };
}

function headerTopology(path: string, fields: ReadonlyMap<string, { value: string; line: number; column: number }>): Topology {
  const m = fields.get('machine');
  if (m === undefined) throw fail(path, 1, 1, 'the header names no machine', "a '# machine: mesh:XxYxZ' line before the first job");
  try {
    const machine = parseMachine(m.value);
    if (isTopology(machine)) return machine;
    throw new MachineSpecError('a bag of cores has no geometry to map tasks onto');
  } catch (err) {
    if (err instanceof MachineSpecError) throw fail(path, m.line, m.column, err.message, 'mesh:XxY[xZ] or torus:XxY[xZ]');
    throw err;
  }
}

function columnOf(line: string, token: number): number {
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  for (let k = 0; (m = re.exec(line)) !== null; k++) if (k === token) return m.index + 1;
  return 1;
}

function fail(file: string, line: number, column: number, message: string, expected: string, hint?: string): InputError {
  return new InputError([{ severity: 'error', pos: { file, line, column }, message, expected, ...(hint === undefined ? {} : { hint }) }]);
}
