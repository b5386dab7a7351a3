// parse → write → parse is the identity, on the paper's examples and on seeded random models.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  loadApplication,
  loadGrid,
  parseApplication,
  parseGridEvents,
  parseHostBehavior,
  parseLinkBehavior,
  writeApplication,
  writeGrid,
  writeGridEvents,
  writeHostBehavior,
  writeLinkBehavior,
} from '../../src/formats/index.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { Rng } from '../../src/util/rng.js';
import { randomApplication, randomGrid, randomHostBehavior, randomLinkBehavior, withoutPos } from './random-models.js';

describe('round trips', () => {
  it('appendix B: parse, write, parse gives the same application', () => {
    const app = loadApplication(join(PACKAGE_ROOT, 'apps/appendix-b.app'));
    const text = writeApplication(app);
    expect(text.split('\n')[24]).toBe('Work: <1> <3 : 1 2 3> <1 : 11> <3 : 600 500 600> <3 : 590 502 604>');
    expect(parseApplication(text, 'again.app')).toEqual(app);
  });

  it('appendix A: parse, write, parse gives the same events', () => {
    const { grid } = loadGrid(join(PACKAGE_ROOT, 'griddescs/appendix-a/appendix-a.grid'));
    const text = writeGridEvents(grid.version, grid.events);
    expect(text.split('\n')[2]).toBe('0:ADD_HOST <cluster3> <host3.1> <stable_50> <1> <0>');
    expect(withoutPos(parseGridEvents(text, 'again.grid').events)).toEqual(withoutPos(grid.events));
  });

  it('random applications', () => {
    const rng = new Rng(2024);
    for (let i = 0; i < 300; i++) {
      const app = randomApplication(rng);
      const text = writeApplication(app);
      const back = parseApplication(text, `random-${i}.app`);
      expect(back).toEqual(app);
      expect(writeApplication(back)).toBe(text);
    }
  });

  it('random grids and behaviours', () => {
    const rng = new Rng(7);
    for (let i = 0; i < 300; i++) {
      const grid = randomGrid(rng);
      const text = writeGridEvents(grid.version, grid.events);
      const back = parseGridEvents(text, `random-${i}.grid`);
      expect(back.warnings).toEqual([]);
      expect(withoutPos(back.events)).toEqual(withoutPos(grid.events));
      const link = randomLinkBehavior(rng, 'l');
      expect(parseLinkBehavior(writeLinkBehavior(link), 'l', 'l')).toEqual(link);
      const host = randomHostBehavior(rng, 'h');
      expect(parseHostBehavior(writeHostBehavior(host), 'h', 'h')).toEqual(host);
    }
  });

  it('writeGrid writes the grid and its behaviour files; loadGrid reads back the same grid', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridsweep-writegrid-'));
    try {
      const rng = new Rng(99);
      for (let i = 0; i < 20; i++) {
        const grid = randomGrid(rng);
        const sub = join(dir, `g${i}`);
        writeGrid(sub, 'test.grid', grid);
        expect(readdirSync(sub).sort()).toEqual([...grid.linkBehaviors.keys(), ...grid.hostBehaviors.keys(), 'test.grid'].sort());
        const { grid: back } = loadGrid(join(sub, 'test.grid'));
        expect(withoutPos(back.events)).toEqual(withoutPos(grid.events));
        expect(back.linkBehaviors).toEqual(grid.linkBehaviors);
        expect(back.hostBehaviors).toEqual(grid.hostBehaviors);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writers refuse names that could not be read back, before writing anything', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridsweep-writegrid-'));
    try {
      const grid = randomGrid(new Rng(5));
      const bad = { ...grid, events: [...grid.events, { kind: 'REMOVE_HOST' as const, timeS: 1e6, host: 'two words' }] };
      expect(() => writeGrid(dir, 'bad.grid', bad)).toThrow(/cannot write the name "two words"/);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
