// A run's chart made small for a catalog card: the configuration the run page draws (main/common/pure/charts/run-chart.ts), with
// nothing to read or point at. No legend, tooltip, title, tick labels or axis titles (at 120 px they
// would be all there is); no events at all, so that the chart never answers the pointer and the card's link gets
// every click; no animation; thinner lines and small markers; the break-even and target lines kept, their labels not.
import type { BarConfig, LineConfig, RunChartConfig } from '../../../main/common/pure/charts/chart-common.ts';
// For its declaration, which adds the marks' options (runMarks) to Chart.js's plugin options.
import type {} from '../../../main/common/pure/charts/marks-plugin.ts';

// The marks plugin's options as a chart's configuration holds them (every field optional, deeply).
type MarksOptions = NonNullable<NonNullable<NonNullable<LineConfig['options']>['plugins']>['runMarks']>;

const quietOptions = () => ({ animation: false as const, events: [], layout: { padding: 8 } });
const QUIET_PLUGINS = { legend: { display: false }, tooltip: { enabled: false }, title: { display: false } } as const;

function quietMarks(marks: MarksOptions | undefined): MarksOptions | undefined {
  if (!marks) return undefined;
  return {
    ...marks,
    vertical: marks.vertical?.map((m) => ({ ...m, label: '' })),
    horizontal: marks.horizontal?.map((m) => ({ ...m, label: '' })),
    barLabels: [],
    labelBackground: 'transparent',
    font: '10px sans-serif',
    empty: '',
  };
}

// Each axis kept for its range and grid, without the words around it, nor the room rows keep for their names.
function quietScales<S extends object>(scales: Record<string, S | undefined> | undefined): Record<string, S> {
  const quiet: Record<string, S> = {};
  for (const [id, scale] of Object.entries(scales ?? {})) {
    if (scale) quiet[id] = { ...scale, ticks: { display: false }, title: { display: false }, border: { display: false }, afterFit: undefined };
  }
  return quiet;
}

function lineThumbnail(config: LineConfig): LineConfig {
  const options = config.options ?? {};
  return {
    ...config,
    data: {
      ...config.data,
      datasets: config.data.datasets.map((ds) => (ds.borderWidth === 0 ? ds : { ...ds, borderWidth: 1.5, pointRadius: 1.5, pointHoverRadius: 1.5 })),
    },
    options: {
      ...options,
      ...quietOptions(),
      scales: quietScales(options.scales),
      plugins: { ...options.plugins, ...QUIET_PLUGINS, runMarks: quietMarks(options.plugins?.runMarks) },
    },
  };
}

function barThumbnail(config: BarConfig): BarConfig {
  const options = config.options ?? {};
  return {
    ...config,
    options: {
      ...options,
      ...quietOptions(),
      scales: quietScales(options.scales),
      plugins: { ...options.plugins, ...QUIET_PLUGINS, runMarks: quietMarks(options.plugins?.runMarks) },
    },
  };
}

export function thumbnailConfig(config: RunChartConfig): RunChartConfig {
  return config.type === 'line' ? lineThumbnail(config) : barThumbnail(config);
}
