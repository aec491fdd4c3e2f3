// Chart.js with only what the run charts use registered (line and bar charts, linear, log and category axes, the
// band fill, legend, tooltip and the title above the plot), so that the bundle leaves the rest out. The one place the
// renderer constructs a Chart: tests replace this module to watch charts being created and updated.
import { Chart } from 'chart.js';

import type { RunChartConfig } from '../../../main/common/pure/charts/chart-common.ts';
import { RUN_CHART_PARTS } from '../../../main/common/pure/charts/chart-parts.ts';

Chart.register(...RUN_CHART_PARTS);

// A drawn chart, whatever its type: replaced data and options redraw it in place.
export interface LiveChart {
  readonly type: RunChartConfig['type'];
  // False when the new configuration is of another type: the caller draws a new chart instead.
  update(config: RunChartConfig): boolean;
  destroy(): void;
}

export function drawChart(canvas: HTMLCanvasElement, config: RunChartConfig): LiveChart {
  if (config.type === 'line') {
    const chart = new Chart(canvas, config);
    return {
      type: 'line',
      update(next) {
        if (next.type !== 'line') return false;
        chart.data = next.data;
        chart.options = next.options ?? {};
        chart.update('none');
        return true;
      },
      destroy: () => chart.destroy(),
    };
  }
  const chart = new Chart(canvas, config);
  return {
    type: 'bar',
    update(next) {
      if (next.type !== 'bar') return false;
      chart.data = next.data;
      chart.options = next.options ?? {};
      chart.update('none');
      return true;
    },
    destroy: () => chart.destroy(),
  };
}
