// The plots of a time-sharing experiment, per workload: the mean response time against the chosen axis
// (load, MPL or slice), one line per strategy configuration (as Zhang and Sivasubramaniam 2004 compare
// strategies in their Figure 8), and the execution profile as stacked bars, one per configuration at the
// axis's last value (as in their Figure 9). Dimensions other than the axis that vary go into the labels.
import { lineChart } from '../../plot/line-chart.js';
import { stackedBarChart } from '../../plot/stacked-bar.js';
import type { TimeshareGroup } from './rows.js';
import type { PlotAxis } from './spec.js';

const PART_LABELS = ['compute', 'spin', 'context switch', 'interrupt', 'idle'] as const;
const PART_COLORS = ['#59a14f', '#e15759', '#f28e2b', '#b07aa1', '#bab0ac'];

const AXIS_LABEL: Record<PlotAxis, string> = { load: 'offered load', mpl: 'multiprogramming level (MPL)', slice: 'time slice (s)' };

function axisValue(g: TimeshareGroup, axis: PlotAxis): number | null {
  return axis === 'load' ? g.load : axis === 'mpl' ? g.mpl : g.sliceS;
}

/** A file-name-safe form of a workload name. */
export function fileSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_');
}

/** [file name, SVG] pairs. */
export function timesharePlots(groups: readonly TimeshareGroup[], axis: PlotAxis): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const workloads = [...new Set(groups.map((g) => g.workload))];
  for (const w of workloads) {
    const mine = groups.filter((g) => g.workload === w);
    const varies = (f: (g: TimeshareGroup) => unknown) => new Set(mine.map(f)).size > 1;
    const others: Array<[PlotAxis, (g: TimeshareGroup) => string]> = (
      [
        ['load', (g: TimeshareGroup) => `load ${g.load}`],
        ['mpl', (g: TimeshareGroup) => `MPL ${g.mpl}`],
        ['slice', (g: TimeshareGroup) => `slice ${g.sliceS}`],
      ] as Array<[PlotAxis, (g: TimeshareGroup) => string]>
    ).filter(([a, f]) => a !== axis && varies(f));
    const label = (g: TimeshareGroup) => [g.config, ...others.map(([, f]) => f(g))].join(' ');
    const series = new Map<string, { x: number; y: number }[]>();
    for (const g of mine) {
      const x = axisValue(g, axis);
      if (x === null) continue;
      const list = series.get(label(g)) ?? [];
      list.push({ x, y: g.meanResponseS });
      series.set(label(g), list);
    }
    const runs = Math.max(...mine.map((g) => g.runs));
    if (series.size > 0) {
      out.push([
        `response-${fileSafe(w)}.svg`,
        lineChart({ title: `${w}: mean job response time${runs > 1 ? ` (mean of ${runs} seeds)` : ''}`, xLabel: AXIS_LABEL[axis], yLabel: 'mean response time (s)', series: [...series].map(([name, points]) => ({ name, points })) }),
      ]);
    }
    const xs = mine.map((g) => axisValue(g, axis)).filter((x): x is number => x !== null);
    const last = xs.length === 0 ? null : Math.max(...xs);
    const bars = mine.filter((g) => axisValue(g, axis) === last);
    out.push([
      `profile-${fileSafe(w)}.svg`,
      stackedBarChart({
        title: `${w}: execution profile${last === null ? '' : ` at ${axis} ${last}`}`,
        xLabel: 'strategy',
        yLabel: 'share of CPU time (%)',
        parts: [...PART_LABELS],
        colors: PART_COLORS,
        bars: bars.map((g) => ({ label: label(g), values: [g.profile.compute, g.profile.spin, g.profile.switch, g.profile.interrupt, g.profile.idle].map((v) => 100 * v) })),
      }),
    ]);
  }
  return out;
}
