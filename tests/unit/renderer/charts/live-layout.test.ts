// A running run's chart holds still: from its first point to its last, and when the run ends, its layout is the one
// it ends with: the same categories, each name as many lines tall, columns or rows, the same legend, panels, sizes
// on the x axis, scale, and the height it asks for. Every lab, with a GPU and without, with the course's Python peers
// and without, at every point of its run: the chart reads the run's plan (the record's `plan`) for what has not come.
import { describe, expect, it } from 'vitest';

import type { RunRecord } from '../../../../main/common/run-record.ts';
import { labDescriptors } from '../../../../main/labs/index.ts';
import type { RunChart } from '../../../../main/common/pure/charts/chart-common.ts';
import { runChart } from '../../../../main/common/pure/charts/run-chart.ts';
import { axisTicks, scaleBounds, valueAxes } from './config-access.ts';
import { inputs, syntheticRun } from './synthetic-runs.ts';

// What must not move while the points arrive.
function layout(chart: RunChart) {
  const config = chart.config;
  const legend = config.options?.plugins?.legend;
  const filter = legend?.labels?.filter as ((item: { datasetIndex: number }) => boolean) | undefined;
  const datasets = config.data.datasets as { label?: string }[];
  const entries = legend?.display === false ? [] : datasets.flatMap((d, i) => (filter && !filter({ datasetIndex: i }) ? [] : [d.label ?? '']));
  const labels = config.type === 'bar' ? (config.data.labels ?? []).map((l) => (Array.isArray(l) ? l.length : 1)) : [];
  return {
    type: config.type,
    rows: config.type === 'bar' ? config.options?.indexAxis : undefined,
    labels,
    entries,
    axes: valueAxes(chart).map((id) => [id, scaleBounds(chart, id).type]),
    sizes: config.type === 'line' ? axisTicks(chart, 'x').labels : [],
    minHeight: chart.minHeight,
  };
}

// The run as the app sees it while it goes on: its plan, and its first `count` points.
function running(record: RunRecord, count: number): RunRecord {
  const plan = record.points.map((p) => ({ key: p.key, series: p.series, label: p.label, name: p.name, x: p.x, reason: p.status === 'waived' ? p.reason : null, why: p.why }));
  return { ...record, status: 'running', plan, points: record.points.slice(0, count) };
}

const CASES = labDescriptors('en').flatMap((lab) =>
  [true, false].flatMap((gpu) => [true, false].map((peers) => [lab.id, gpu ? 'a GPU' : 'no GPU', peers ? 'peers' : 'no peers', gpu, peers] as const)),
);

describe('a running run’s chart', () => {
  it.each(CASES)('%s with %s and %s: the layout it ends with, from its first point', (labId, _gpu, _peers, gpu, peers) => {
    const { record, lab } = syntheticRun(labId, { gpu, peers });
    const ended = layout(runChart(record, lab, inputs));
    for (let count = 0; count <= record.points.length; count++) {
      expect(layout(runChart(running(record, count), lab, inputs)), `after ${count} of ${record.points.length} points`).toEqual(ended);
    }
  });

  it('needs its plan: without it, the first points alone lay out another chart', () => {
    const { record, lab } = syntheticRun('vector-function', { peers: true });
    const { plan: _plan, ...withoutPlan } = running(record, 2);
    expect(layout(runChart(withoutPlan, lab, inputs))).not.toEqual(layout(runChart(record, lab, inputs)));
  });
});
