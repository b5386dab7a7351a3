// The import direction, checked: model and interfaces at the bottom; the libraries above them in four
// layers: forecasting, records, sweeps and plots; batch clusters (their jobs, machines, policies and
// engines); the description formats and real grid files (which name batch policies, machines and jobs);
// the scheduler, the generators and the trace runs (which read those formats). Then the backends in three
// layers: the simulator and the transport layer (backends/transport: the endpoint contract, the agent,
// deadlines, batching, the transport registry), the transports (backends/local, ssh, slurm), and the real
// run controller (backends/real, with the list of transports it reads, backends/transports.ts); experiments, reports, the dashboard and the demo above the
// backends; the CLI on top. An import may go down or stay in its layer, never up; a transport imports no
// other transport; and no file may reach itself through its imports. Type-only imports count too: a layer
// that names a higher layer's types depends on it. Known crossings are listed with the issue that removes
// them; a new one fails here.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const LAYERS: ReadonlyArray<readonly string[]> = [
  ['src/util/', 'src/model/', 'src/interfaces/', 'src/version.ts'],
  ['src/forecast/', 'src/record/', 'src/sweep/', 'src/plot/'],
  ['src/batch/'],
  ['src/formats/', 'src/realgrid/'],
  ['src/scheduler/', 'src/generators/', 'src/trace/'],
  ['backends/sim/', 'backends/transport/'],
  ['backends/local/', 'backends/ssh/', 'backends/slurm/'],
  ['backends/real/', 'backends/transports.ts'],
  ['src/experiment/', 'src/report/', 'src/dashboard/', 'src/demo/'],
  ['src/cli/'],
];

/** Crossings that exist today, each to be removed by the issue named. */
const KNOWN_CROSSINGS: readonly string[] = [];

/** The transports: each imports the transport layer and the core, never another transport. */
const TRANSPORT_FOLDERS = ['backends/local/', 'backends/ssh/', 'backends/slurm/'];

function transportOf(path: string): string | undefined {
  return TRANSPORT_FOLDERS.find((p) => path.startsWith(p));
}

/**
 * What the transport layer and the transports may import besides their own folder: the core, and of the
 * batch library only the submission strategies that simulated and real batch clusters share (the
 * idle-pilot give-up rule; src/realgrid's Slurm spec takes its defaults from there too).
 */
const TRANSPORT_MAY_IMPORT = ['backends/transport/', 'src/util/', 'src/model/', 'src/interfaces/', 'src/realgrid/', 'src/record/', 'src/batch/submission.ts'];

function layerOf(path: string): number {
  const i = LAYERS.findIndex((prefixes) => prefixes.some((p) => path.startsWith(p)));
  if (i < 0) throw new Error(`${path} is in no layer: add its folder to LAYERS`);
  return i;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(PACKAGE_ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(PACKAGE_ROOT, path)).isDirectory()) return name === 'generated' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Each file's imports of other files of the project (relative specifiers, static and re-exports). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of [...sourceFiles('src'), ...sourceFiles('backends')]) {
    const text = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
    const targets: string[] = [];
    for (const m of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gms)) {
      targets.push(relative(PACKAGE_ROOT, resolve(PACKAGE_ROOT, dirname(file), m[1]!.replace(/\.js$/, '.ts'))));
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Files that reach themselves through imports: the strongly connected components of more than one file. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        onStack.delete(w);
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the layers', () => {
  const graph = importGraph();

  it('no import goes up a layer, but for the known crossings', () => {
    const crossings: string[] = [];
    for (const [file, targets] of graph) for (const t of targets) if (layerOf(t) > layerOf(file)) crossings.push(`${file} -> ${t}`);
    expect([...new Set(crossings)].sort()).toEqual([...KNOWN_CROSSINGS].sort());
  });

  it('no transport imports another transport', () => {
    const crossings: string[] = [];
    for (const [file, targets] of graph) {
      const own = transportOf(file);
      for (const t of targets) if (own !== undefined && transportOf(t) !== undefined && transportOf(t) !== own) crossings.push(`${file} -> ${t}`);
    }
    expect(crossings).toEqual([]);
  });

  it('the transport layer and the transports import only the transport layer and the core', () => {
    const outside: string[] = [];
    for (const [file, targets] of graph) {
      const own = transportOf(file) ?? (file.startsWith('backends/transport/') ? 'backends/transport/' : undefined);
      if (own === undefined) continue;
      for (const t of targets) if (!t.startsWith(own) && !TRANSPORT_MAY_IMPORT.some((p) => t.startsWith(p))) outside.push(`${file} -> ${t}`);
    }
    expect(outside).toEqual([]);
  });

  it('no file reaches itself through its imports', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('the check sees a crossing and a circle when there is one', () => {
    // The same functions on a graph made up for the purpose: a batch file importing the CLI, and a circle.
    const made = new Map<string, string[]>([
      ['src/batch/a.ts', ['src/cli/main.ts', 'src/batch/b.ts']],
      ['src/batch/b.ts', ['src/batch/a.ts']],
      ['src/cli/main.ts', []],
    ]);
    expect(layerOf('src/cli/main.ts') > layerOf('src/batch/a.ts')).toBe(true);
    // The backends' own layers: transport below the transports, the transports below the controller.
    expect(layerOf('backends/transport/endpoint.ts') < layerOf('backends/ssh/ssh-endpoint.ts')).toBe(true);
    expect(layerOf('backends/slurm/pilot-pool.ts') < layerOf('backends/real/runner.ts')).toBe(true);
    expect(layerOf('backends/transports.ts')).toBe(layerOf('backends/real/runner.ts'));
    expect(circles(made)).toEqual([['src/batch/a.ts', 'src/batch/b.ts']]);
  });
});
