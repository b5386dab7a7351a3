// What an edit of the real grid file changes in a run: machines added and removed (a changed machine is
// both), clusters appearing and disappearing, and what a run keeps (origin, a cluster's storage).
import { describe, expect, it } from 'vitest';
import { diffRealGrids } from '../../src/realgrid/diff.js';
import { parseRealGrid } from '../../src/realgrid/real-grid-file.js';

const host = (name: string, port = 22) => ({ name, address: '10.0.0.1', port, user: 'me', identityFile: '/k', arch: 0 });
const grid = (clusters: object[], origin = '/o') => parseRealGrid(JSON.stringify({ realgrid: 1, origin, clusters }), '/g/grid.json');

describe('diffRealGrids', () => {
  it('lists machines added and removed, a changed machine as both, a new cluster with its machines', () => {
    const before = grid([{ name: 'c1', storage: '/s1', hosts: [host('a'), host('b'), host('c')] }]);
    const after = grid([
      { name: 'c1', storage: '/s1', hosts: [host('a'), host('c', 2222)] },
      { name: 'c2', storage: '/s2', hosts: [host('d')] },
    ]);
    const d = diffRealGrids(before, after);
    expect(d.removed.map((r) => `${r.cluster.id}/${r.endpoint.name}`).sort()).toEqual(['c1/b', 'c1/c']);
    expect(d.added.map((r) => `${r.cluster.id}/${r.endpoint.name}`).sort()).toEqual(['c1/c', 'c2/d']);
    expect(d.added.find((r) => r.endpoint.name === 'c')!.endpoint).toMatchObject({ port: 2222 });
    expect(d.notApplied).toEqual([]);
  });

  it('keeps the origin and an existing cluster storage, and says so', () => {
    const before = grid([{ name: 'c1', storage: '/s1', hosts: [host('a')] }]);
    const after = grid([{ name: 'c1', storage: '/elsewhere', hosts: [host('a'), host('b')] }], '/other');
    const d = diffRealGrids(before, after);
    expect(d.notApplied).toHaveLength(2);
    expect(d.notApplied.join('\n')).toMatch(/origin directory/);
    expect(d.notApplied.join('\n')).toMatch(/cluster c1: its storage/);
    expect(d.removed).toEqual([]);
    expect(d.added.map((r) => [r.endpoint.name, r.cluster.storageDir])).toEqual([['b', '/s1']]);
    expect(d.effective.originDir).toBe('/o');
    // a later read of the same file tells it again (the file still asks for it); the run's own view changes nothing
    expect(diffRealGrids(d.effective, after).notApplied).toHaveLength(2);
    expect(diffRealGrids(d.effective, d.effective)).toMatchObject({ removed: [], added: [], notApplied: [] });
  });

  it('an unchanged file changes nothing', () => {
    const g = grid([{ name: 'c1', storage: '/s1', hosts: [host('a')] }, { name: 'here', storage: 'x', hosts: { type: 'local', slots: 2 } }]);
    expect(diffRealGrids(g, grid([{ name: 'c1', storage: '/s1', hosts: [host('a')] }, { name: 'here', storage: 'x', hosts: { type: 'local', slots: 2 } }]))).toMatchObject({ removed: [], added: [], notApplied: [] });
  });
});
