// The chart of one run, as its lab's descriptor asks for it: a size sweep on log axes or bars per category. What the
// renderer draws live and the PDF writer draws headless, from the same record.
import type { LabDescriptor } from '../../lab-descriptor.ts';
import type { RunRecord } from '../../run-record.ts';
import { categoryChart } from './category-chart.ts';
import type { ChartInputs, RunChart } from './chart-common.ts';
import { sweepChart } from './sweep-chart.ts';

export function runChart(record: RunRecord, lab: LabDescriptor, inputs: ChartInputs): RunChart {
  return lab.chart.x.quantity === 'category' ? categoryChart(record, lab, inputs) : sweepChart(record, lab, inputs);
}

// The points a configuration draws as values, for a chart that is handed a configuration it did not build.
export function countDrawnPoints(config: RunChart['config']): number {
  if (config.type === 'bar') return config.data.datasets.reduce((n, ds) => n + ds.data.filter((v) => v !== null).length, 0);
  return config.data.datasets.filter((ds) => ds.label !== '').reduce((n, ds) => n + ds.data.filter((p) => Number.isFinite(p.y)).length, 0);
}
