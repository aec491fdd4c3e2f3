// The break-even and reference labels of charts drawn by Chart.js on the report's headless canvas (the app draws the
// same configurations): each label's box, as the marks plugin placed it, crosses no series line and covers no marker
// as Chart.js laid them out, stays inside the plot, and overlaps no other label; a break-even's label stands beside
// its own line, in its own panel. At the report's size and at the app's, PyTorch's break-evens in Spanish too.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { Chart } from 'chart.js';
import { describe, expect, it } from 'vitest';

import type { LabDescriptor } from '../../../main/common/lab-descriptor.ts';
import { translator } from '../../../main/common/pure/i18n/index.ts';
import { type RunRecord } from '../../../main/common/run-record.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';
import { findLab, labDescriptors } from '../../../main/labs/index.ts';
import { REPORT_CHART, withHeadlessChart } from '../../../main/reports/chart-image.ts';
import type { RunChart } from '../../../main/common/pure/charts/chart-common.ts';
import { compareChart } from '../../../main/common/pure/charts/compare-chart.ts';
import type { Box, Dot, Segment } from '../../../main/common/pure/charts/label-placement.ts';
import type { MarkChart, RunMarksOptions } from '../../../main/common/pure/charts/marks-plugin.ts';
import { placeMarkLabels } from '../../../main/common/pure/charts/marks-plugin.ts';
import { LIGHT_CHART_THEME } from '../../../main/common/pure/charts/palette.ts';
import { runChart } from '../../../main/common/pure/charts/run-chart.ts';
import { boxesTouch, hits } from '../renderer/charts/geometry.ts';
import { appT, fixture } from './pdf-tools.ts';

const inputs = { theme: LIGHT_CHART_THEME, t: appT };
const APP_CHART = { width: 1000, height: 380, scale: 1 };

const peerRun = STORED_RECORD.parse(JSON.parse(readFileSync(fileURLToPath(new URL('../../fixtures/peer-runs/h100-elementwise-breakeven-peers.json', import.meta.url)), 'utf8')));

function spanish(record: RunRecord): LabDescriptor {
  const found = labDescriptors('es').find((l) => l.id === record.lab);
  if (!found) throw new Error(`no lab ${record.lab}`);
  return found;
}

function lab(record: RunRecord): LabDescriptor {
  const found = findLab(record.lab);
  if (!found) throw new Error(`no lab ${record.lab}`);
  return found.descriptor;
}

// The series as Chart.js laid them out, read off its elements: each visible line with a name (a band's edges have
// none) as its segments between drawn points and its markers at their radius.
function drawnSeries(chart: Chart): { segments: Segment[]; dots: Dot[] } {
  const segments: Segment[] = [];
  const dots: Dot[] = [];
  chart.data.datasets.forEach((ds, i) => {
    if (!ds.label || !chart.isDatasetVisible(i)) return;
    const points = chart.getDatasetMeta(i).data.map((el) => ({ x: el.x, y: el.y, drawn: !(el as { skip?: boolean }).skip && Number.isFinite(el.x) && Number.isFinite(el.y) }));
    points.forEach((p, j) => {
      if (!p.drawn) return;
      dots.push({ x: p.x, y: p.y, r: 3.5 });
      const next = points[j + 1];
      if (next?.drawn) segments.push({ x1: p.x, y1: p.y, x2: next.x, y2: next.y });
    });
  });
  return { segments, dots };
}

function placedLabels(built: RunChart, size: { width: number; height: number; scale: number }) {
  return withHeadlessChart(built.config, size, (chart, canvas) => {
    const ctx = canvas.getContext('2d');
    // Plain data as the chart function wrote it; Chart.js's option types make every field of it optional.
    const options = (built.config.options?.plugins?.runMarks ?? {}) as Partial<RunMarksOptions>;
    ctx.font = options.font ?? '12px sans-serif';
    const placed = placeMarkLabels(chart as unknown as MarkChart, options, (text) => ctx.measureText(text).width);
    // Each break-even's line: its x and the panel it runs down (its y axis's top and bottom).
    const lines = (options.vertical ?? []).map((m) => {
      const panel = chart.scales[m.scale ?? 'y'];
      return { x: chart.scales.x?.getPixelForValue(m.x) ?? Number.NaN, top: panel?.top ?? Number.NaN, bottom: panel?.bottom ?? Number.NaN };
    });
    return { placed, series: drawnSeries(chart), area: { ...chart.chartArea }, lines };
  });
}

const CHARTS: [string, () => RunChart][] = [
  ['h100-elementwise-breakeven', () => runChart(fixture('h100-elementwise-breakeven'), lab(fixture('h100-elementwise-breakeven')), inputs)],
  ['h100-matmul-breakeven', () => runChart(fixture('h100-matmul-breakeven'), lab(fixture('h100-matmul-breakeven')), inputs)],
  ['h100-transfer', () => runChart(fixture('h100-transfer'), lab(fixture('h100-transfer')), inputs)],
  ['matmul-breakeven compared', () => compareChart(fixture('h100-matmul-breakeven'), fixture('cpu-matmul-breakeven'), lab(fixture('h100-matmul-breakeven')), inputs)],
  ['elementwise-breakeven compared with itself', () => compareChart(fixture('h100-elementwise-breakeven'), fixture('h100-elementwise-breakeven'), lab(fixture('h100-elementwise-breakeven')), inputs)],
  // PyTorch's break-evens beside the engine's, in English and in the longer Spanish.
  ['h100-elementwise-breakeven with peers', () => runChart(peerRun, lab(peerRun), inputs)],
  ['h100-elementwise-breakeven with peers, in Spanish', () => runChart(peerRun, spanish(peerRun), { theme: LIGHT_CHART_THEME, t: translator('es') })],
];

describe('labels over a drawn chart', () => {
  it.each(CHARTS.flatMap(([name, build]) => [
    [name, 'the report', build, REPORT_CHART],
    [name, 'the app', build, APP_CHART],
  ] as const))('%s at %s’s size: every label clear of lines, markers and other labels', (_name, _where, build, size) => {
    const built = build();
    const { placed, series, area, lines } = placedLabels(built, size);
    // Every mark with words has its label placed (a reference line repeated in each panel is named in the first).
    const boxes = [...placed.horizontal, ...placed.vertical].flatMap((l) => (l && l.text !== '' ? [l.box] : [])).filter((b): b is Box => b.width > 0);
    const worded = [...(built.config.options?.plugins?.runMarks?.horizontal ?? []), ...(built.config.options?.plugins?.runMarks?.vertical ?? [])].filter((m) => m.label !== '');
    expect(boxes.length).toBe(worded.length);
    boxes.forEach((box, i) => {
      expect(hits(box, series), `label ${i} crosses a series`).toBe(0);
      expect(box.left).toBeGreaterThanOrEqual(area.left);
      expect(box.left + box.width).toBeLessThanOrEqual(area.right);
      expect(box.top).toBeGreaterThanOrEqual(area.top);
      expect(box.top + box.height).toBeLessThanOrEqual(area.bottom);
      boxes.slice(i + 1).forEach((other) => expect(boxesTouch(box, other), `labels ${i} and another overlap`).toBe(false));
    });
    // A break-even's label stands beside its own line, in its own panel: an edge of it a few pixels from the line.
    placed.vertical.forEach((label, i) => {
      const line = lines[i];
      if (!label || label.text === '' || !line) return;
      const gap = Math.min(Math.abs(label.box.left - line.x), Math.abs(label.box.left + label.box.width - line.x));
      expect(gap, `the label "${label.text}" stands ${gap} px from its line`).toBeLessThanOrEqual(4);
      expect(label.box.top).toBeGreaterThanOrEqual(line.top);
      expect(label.box.top + label.box.height).toBeLessThanOrEqual(line.bottom);
    });
  });
});
