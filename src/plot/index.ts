export { lineChart, type LineChartOptions, type LinePoint, type LineSeries } from './line-chart.js';
export { boxPlot, boxStatistics, quantile, type BoxGroup, type BoxPlotOptions, type BoxSummary } from './box-plot.js';
export { ganttChart, KIND_COLORS, type GanttOptions } from './gantt.js';
export { linearScale, logScale, niceTicks } from './svg.js';
export { stackedBarChart, type StackedBar, type StackedBarOptions } from './stacked-bar.js';
