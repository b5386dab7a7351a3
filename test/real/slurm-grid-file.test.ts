// A Slurm cluster in a real grid file: its settings with their defaults (the simulated batch clusters'
// submission defaults), errors that name file:line:column, and what an edit during a run can change.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SUBMISSION } from '../../src/batch/submission.js';
import { diffRealGrids } from '../../src/realgrid/diff.js';
import { parseRealGrid, realGridArchitectures } from '../../src/realgrid/real-grid-file.js';

const gridText = (slurm: Record<string, unknown>, extra: object[] = []): string =>
  JSON.stringify({ realgrid: 1, origin: '/o', clusters: [...extra, { name: 'hpc', storage: 'scratch', hosts: { type: 'slurm', ...slurm } }] }, null, 2);

describe('Slurm clusters in real grid files', () => {
  it('reads every setting, with the simulated pilots strategy defaults for those left out', () => {
    const full = parseRealGrid(
      gridText({ pilots: 3, pilotCores: 8, pilotWalltimeS: 1800, memoryMB: 4000, partition: 'short', account: 'p42', qos: 'normal', sbatchArgs: ['--constraint=avx2'], setup: ['module load perl'], arch: 2 }),
      '/g/grid.json',
    ).clusters[0]!;
    expect(full.kind).toBe('slurm');
    expect(full.storageDir).toBe('/g/scratch');
    expect(full.slurm).toEqual({
      submission: 'pilots',
      pilots: 3,
      pilotCores: 8,
      pilotWalltimeS: 1800,
      memoryMB: 4000,
      partition: 'short',
      account: 'p42',
      qos: 'normal',
      sbatchArgs: ['--constraint=avx2'],
      setup: ['module load perl'],
      env: {},
      arch: 2,
    });
    // the storage, seen from this machine, is a machine of the cluster with no hosts of its own
    expect(full.endpoints).toEqual([{ kind: 'local', name: 'hpc.storage', hostIds: [], arch: 2 }]);
    const grid = parseRealGrid(gridText({}), '/g/grid.json');
    expect(grid.clusters[0]!.slurm).toMatchObject({ pilots: DEFAULT_SUBMISSION.pilots, pilotWalltimeS: DEFAULT_SUBMISSION.pilotWalltimeS, pilotCores: 1, sbatchArgs: [], setup: [] });
    expect(realGridArchitectures(parseRealGrid(gridText({ arch: 3 }), '/g/grid.json'))).toBe(4);
  });

  it('reaches the cluster through a login node over SSH, with the same rules as SSH hosts', () => {
    const login = { address: 'login.example.org', user: 'me', identityFile: '/k' };
    const c = parseRealGrid(JSON.stringify({ realgrid: 1, clusters: [{ name: 'hpc', storage: '/scratch/me', hosts: { type: 'slurm', login, env: { SLURM_CONF: '/etc/slurm/b.conf' } } }] }), '/g/grid.json').clusters[0]!;
    expect(c.slurm!.env).toEqual({ SLURM_CONF: '/etc/slurm/b.conf' });
    expect(c.endpoints).toHaveLength(1);
    expect(c.endpoints[0]).toMatchObject({ kind: 'ssh', name: 'hpc.login', address: 'login.example.org', port: 22, user: 'me', identityFile: '/k', hostIds: [] });
    const relative = JSON.stringify({ realgrid: 1, clusters: [{ name: 'hpc', storage: 'scratch', hosts: { type: 'slurm', login } }] }, null, 2);
    expect(() => parseRealGrid(relative, 'g.json')).toThrow(/g\.json:\d+:\d+: error: storage of a Slurm cluster reached through a login node must be an absolute path/);
    const noKey = JSON.stringify({ realgrid: 1, clusters: [{ name: 'hpc', storage: '/s', hosts: { type: 'slurm', login: { address: 'l' } } }] }, null, 2);
    expect(() => parseRealGrid(noKey, 'g.json')).toThrow(/host "hpc\.login" names no credentials/);
  });

  it('names the line and column of a bad setting, and what it expected', () => {
    const text = gridText({ pilotCores: 0 });
    const line = text.split('\n').findIndex((l) => l.includes('"pilotCores"')) + 1;
    expect(() => parseRealGrid(text, 'g.json')).toThrow(new RegExp(`g\\.json:${line}:\\d+: error: .*pilotCores.*1 or more`, 's'));
    expect(() => parseRealGrid(gridText({ pilotWalltimeS: 30 }), 'g.json')).toThrow(/g\.json:\d+:\d+: error: .*pilotWalltimeS.*60 or more/s);
    expect(() => parseRealGrid(gridText({ partition: 'a b' }), 'g.json')).toThrow(/g\.json:\d+:\d+: error: .*partition/s);
    expect(() => parseRealGrid(gridText({ walltime: 60 }), 'g.json')).toThrow(/g\.json:\d+:\d+: error: .*walltime/s);
    const perWork = gridText({ submission: 'per-work', pilotCores: 4 });
    const coresLine = perWork.split('\n').findIndex((l) => l.includes('"pilotCores"')) + 1;
    expect(() => parseRealGrid(perWork, 'g.json')).toThrow(new RegExp(`g\\.json:${coresLine}:\\d+: error: cluster "hpc": per-Work jobs take one core each`));
    expect(parseRealGrid(gridText({ submission: 'per-work' }), 'g.json').clusters[0]!.slurm).toMatchObject({ submission: 'per-work', pilotCores: 1 });
  });

  it('an edit cannot add a Slurm cluster to a running run, nor change its settings; it says so', () => {
    const local = { name: 'here', storage: 'x', hosts: { type: 'local', slots: 1 } };
    const before = parseRealGrid(JSON.stringify({ realgrid: 1, origin: '/o', clusters: [local] }), '/g/grid.json');
    const added = diffRealGrids(before, parseRealGrid(gridText({}, [local]), '/g/grid.json'));
    expect(added.added).toEqual([]);
    expect(added.notApplied.join('\n')).toMatch(/cluster hpc: a Slurm cluster cannot join a running run/);
    const started = parseRealGrid(gridText({ pilots: 1 }), '/g/grid.json');
    const changed = diffRealGrids(started, parseRealGrid(gridText({ pilots: 4 }), '/g/grid.json'));
    expect(changed).toMatchObject({ added: [], removed: [] });
    expect(changed.notApplied.join('\n')).toMatch(/cluster hpc: its Slurm settings cannot change during a run/);
    expect(diffRealGrids(started, started)).toMatchObject({ added: [], removed: [], notApplied: [] });
  });
});
