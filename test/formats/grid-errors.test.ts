// Grid description errors and warnings, each with its exact line:column.
import { describe, expect, it } from 'vitest';
import { parseGridEvents } from '../../src/formats/index.js';
import { errorLines, inputErrors, theError } from './helpers.js';

const parse = (text: string) => () => parseGridEvents(text, 'test.grid');

describe('grid description errors', () => {
  it('duplicate cluster and host names while they are in the grid', () => {
    const d = inputErrors(parse('GridDescription 1\n0:ADD_CLUSTER c1 l 0\n0:ADD_CLUSTER <c1> l 0\n0:ADD_HOST c1 h1 s 0 0\n1:ADD_HOST c1 h1 s 0 0\n'));
    expect(errorLines(d)).toEqual([
      "3:16 duplicate cluster name 'c1': it is already in the grid (added at line 2)",
      "5:15 duplicate host name 'h1': it is already in the grid (added at line 4)",
    ]);
    expect(d[0]).toMatchObject({ found: "'c1'", hint: 'remove the cluster first (REMOVE_CLUSTER) or choose another name' });
  });

  it('a removed cluster may be added again, with new hosts', () => {
    const r = parseGridEvents('GridDescription 1\n0:ADD_CLUSTER c1 l 0\n0:ADD_HOST c1 h1 s 0 0\n5:REMOVE_CLUSTER c1\n8:ADD_CLUSTER c1 l 0\n9:ADD_HOST c1 h1 s 0 0\n', 'ok.grid');
    expect(r.events).toHaveLength(5);
    expect(r.warnings).toEqual([]);
  });

  it('a host added to a removed or never-added cluster', () => {
    const d = inputErrors(parse('GridDescription 1\n0:ADD_CLUSTER c1 l 0\n5:REMOVE_CLUSTER c1\n6:ADD_HOST c1 h1 s 0 0\n7:ADD_HOST c9 h2 s 0 0\n'));
    expect(errorLines(d)).toEqual([
      "4:12 host 'h1' is added to cluster 'c1', which was removed at time 5 (line 3)",
      "5:12 unknown cluster 'c9' at time 7",
    ]);
    expect(d[1]).toMatchObject({ expected: 'the name of a cluster added before time 7', hint: "did you mean 'c1'?" });
  });

  it('unknown cluster and host names in every event kind', () => {
    const d = inputErrors(
      parse('GridDescription 1\n0:ADD_CLUSTER c1 l 0\n1:REMOVE_HOST hx\n2:CHANGE_HOST_BEHAVIOR hy s 0\n3:CHANGE_CLUSTER_BEHAVIOR c2 l 0\n4:REMOVE_CLUSTER cluster1\n'),
    );
    expect(errorLines(d)).toEqual([
      "3:15 unknown host 'hx' at time 1",
      "4:24 unknown host 'hy' at time 2",
      "5:27 unknown cluster 'c2' at time 3",
      "6:18 unknown cluster 'cluster1' at time 4",
    ]);
  });

  it('a name used before the event that adds it says where it is added', () => {
    const d = inputErrors(parse('GridDescription 1\n0:ADD_CLUSTER c1 l 0\n1:REMOVE_HOST h1\n2:ADD_HOST c1 h1 s 0 0\n'));
    expect(theError(d, "unknown host 'h1'")).toMatchObject({
      pos: { line: 3, column: 15 },
      hint: 'it is first added at time 2 (line 4); move this event after that',
    });
  });

  it('negative time, offset and architecture; fractional offset', () => {
    const d = inputErrors(parse('GridDescription 1\n-1:ADD_CLUSTER c1 l 0\n0:ADD_CLUSTER c2 l -3\n0:ADD_HOST c2 h s 1.5 -1\n'));
    expect(errorLines(d)).toEqual(['2:1 negative time', '3:20 negative offset', '4:19 offset must be a whole number', '4:23 negative architecture index']);
    expect(d[1]).toMatchObject({ found: "'-3'", expected: 'a whole number, 0 or more' });
  });

  it('a behaviour used both for a link and for a host', () => {
    const d = inputErrors(parse('GridDescription 1\n0:ADD_CLUSTER c1 same 0\n0:ADD_HOST c1 h same 0 0\n'));
    expect(errorLines(d)).toEqual(["3:17 behaviour 'same' is used here for a host but at line 2 for a link"]);
  });

  it('malformed events say what was expected at that column', () => {
    const d = inputErrors(parse('GridDescription 1\n0 ADD_CLUSTER c1 l 0\n0:ADD_CLUSTER c1 l\n0:ADD_HOST c1 h s 0 0 7\n0:ADD_CLUSTR c1 l 0\n0:add_host c1 h s 0 0\n'));
    expect(d.map((x) => [x.pos.line, x.pos.column, x.found, x.expected])).toEqual([
      [2, 3, "'ADD_CLUSTER'", "':'"],
      [3, 19, 'the end of the line', "a number or '<'"],
      [4, 23, "'7'", 'the end of the line'],
      [5, 3, "'ADD_CLUSTR'", "'ADD_CLUSTER' or 'ADD_HOST' or 'REMOVE_CLUSTER' or 'REMOVE_HOST' or 'CHANGE_HOST_BEHAVIOR' or 'CHANGE_CLUSTER_BEHAVIOR' or 'ADD_BATCH_CLUSTER'"],
      [6, 3, "'add_host'", "'ADD_CLUSTER' or 'ADD_HOST' or 'REMOVE_CLUSTER' or 'REMOVE_HOST' or 'CHANGE_HOST_BEHAVIOR' or 'CHANGE_CLUSTER_BEHAVIOR' or 'ADD_BATCH_CLUSTER'"],
    ]);
    expect(d[3]!.hint).toBe('did you mean ADD_CLUSTER?');
    expect(d[4]!.hint).toBe('event kinds are written in capitals: ADD_HOST');
  });

  it('a missing or wrong header', () => {
    expect(errorLines(inputErrors(parse('')))).toEqual(['1:1 empty grid description']);
    const d = inputErrors(parse('WorkDescription 1 0 0\n'));
    expect(d[0]).toMatchObject({ pos: { line: 1, column: 1 }, expected: "'GridDescription'" });
    expect(d[0]!.hint).toContain('looks like an application description');
  });
});

describe('grid description warnings', () => {
  it('events out of time order are sorted stably, with a warning', () => {
    const r = parseGridEvents('GridDescription 1\n10:ADD_CLUSTER c1 l 0\n5:ADD_CLUSTER c2 l 0\n5:ADD_CLUSTER c3 l 0\n', 'o.grid');
    expect(r.events.map((e) => ('cluster' in e ? e.cluster : ''))).toEqual(['c2', 'c3', 'c1']);
    expect(r.warnings.map((w) => `${w.pos.line}:${w.pos.column} ${w.message}`)).toEqual([
      '3:1 event at time 5 is listed after an event at time 10 (line 2)',
      '4:1 event at time 5 is listed after an event at time 10 (line 2)',
    ]);
    expect(r.warnings[0]!.severity).toBe('warning');
  });

  it('removing or changing a cluster or host that is absent is a warning', () => {
    const r = parseGridEvents(
      'GridDescription 1\n0:ADD_CLUSTER c1 l 0\n0:ADD_HOST c1 h1 s 0 0\n1:REMOVE_HOST h1\n2:REMOVE_HOST h1\n3:CHANGE_HOST_BEHAVIOR h1 s 1\n4:REMOVE_CLUSTER c1\n5:REMOVE_CLUSTER c1\n',
      'w.grid',
    );
    expect(r.warnings.map((w) => `${w.pos.line}:${w.pos.column} ${w.message}`)).toEqual([
      "5:15 host 'h1' is not in the grid at time 2 (removed at time 1, line 4); removing it again has no effect",
      "6:24 host 'h1' is not in the grid at time 3 (removed at time 1, line 4); the new behaviour applies only if the host is added again",
      "8:18 cluster 'c1' is not in the grid at time 5 (removed at time 4, line 7); removing it again has no effect",
    ]);
  });

  it('decimal times are allowed', () => {
    const r = parseGridEvents('GridDescription 2.1\n0.5:ADD_CLUSTER c1 l 0\n', 'd.grid');
    expect(r.version).toBe('2.1');
    expect(r.events[0]!.timeS).toBe(0.5);
  });
});
