import { describe, expect, it } from 'vitest';
import { getHeuristic, listHeuristics } from '../../src/scheduler/heuristics/registry.js';

describe('heuristic registry', () => {
  it('lists H0–H9 and XSufferage, each with a one-line help', () => {
    const list = listHeuristics();
    expect(list.map((h) => h.code)).toEqual(['H0', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'H7', 'H8', 'H9', 'XS']);
    for (const h of list) {
      expect(h.help.length).toBeGreaterThan(10);
      expect(h.help).not.toContain('\n');
      expect(getHeuristic(h.name).name).toBe(h.name);
    }
    expect(new Set(list.map((h) => h.name)).size).toBe(list.length);
  });
  it('finds a heuristic by its code', () => {
    expect(getHeuristic('xs').name).toBe('xsufferage');
    expect(getHeuristic('H3').name).toBe('sufferage');
  });
  it('names the valid heuristics when the name is unknown', () => {
    expect(() => getHeuristic('fastest')).toThrow(/unknown heuristic "fastest"; expected one of: workqueue \(H0\), minmin \(H1\)/);
  });
});
