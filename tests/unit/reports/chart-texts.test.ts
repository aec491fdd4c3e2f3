// No text over text, none off the canvas: every text every chart draws (tick labels, titles, legend entries, break-even
// and reference labels, the values over bars, the words of an empty plot), recorded as the canvas draws it
// (main/common/pure/charts/text-recorder.ts, through the current transform: a turned axis title too) on the PDF's headless
// canvas. Every recorded run (tests/fixtures/runs, the peers' runs, the kernel playground's runs: the recorded
// session's), each lab's GPU run compared with its CPU-only run and with its run with peers, in English and in
// Spanish, at the report's size and at the sizes the app gives a chart (a laptop's window, a wide one). A chart is an
// image in the PDF: its text layer cannot see this.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';

import { exerciseDefinition } from '../../../main/common/exercises.ts';
import { translator } from '../../../main/common/pure/i18n/index.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import type { KernelRun } from '../../../main/common/playground.ts';
import { type RunRecord } from '../../../main/common/run-record.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';
import { labDescriptors } from '../../../main/labs/index.ts';
import { reportChartSize, withHeadlessChart } from '../../../main/reports/chart-image.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';
import type { ChartInputs, RunChart } from '../../../main/common/pure/charts/chart-common.ts';
import { compareChart } from '../../../main/common/pure/charts/compare-chart.ts';
import { LIGHT_CHART_THEME } from '../../../main/common/pure/charts/palette.ts';
import { kernelRunChart } from '../../../main/common/pure/charts/playground-chart.ts';
import { runChart } from '../../../main/common/pure/charts/run-chart.ts';
import type { DrawnText } from '../renderer/charts/text-recorder.ts';
import { describeProblems, installTextRecorder, textProblems } from '../renderer/charts/text-recorder.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const texts = new WeakMap<object, DrawnText[]>();
installTextRecorder(Object.getPrototypeOf(createCanvas(1, 1).getContext('2d')) as object, texts);

function records(folder: string): [string, RunRecord][] {
  return readdirSync(join(fixtures, folder))
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => [n.replace(/\.json$/, ''), STORED_RECORD.parse(JSON.parse(readFileSync(join(fixtures, folder, n), 'utf8')))]);
}

const RUNS = [...records('runs'), ...records('peer-runs'), ...records('webgpu-runs')];
const byName = new Map(RUNS);
const KERNEL_RUNS = readdirSync(join(fixtures, 'kernel-runs'))
  .filter((n) => n.endsWith('.json'))
  .sort()
  .map((n) => [n.replace(/\.json$/, ''), JSON.parse(readFileSync(join(fixtures, 'kernel-runs', n), 'utf8')) as KernelRun] as const);

type Build = (locale: Locale) => RunChart;

function inputs(locale: Locale): ChartInputs {
  return { theme: LIGHT_CHART_THEME, t: translator(locale) };
}

function labOf(id: string, locale: Locale) {
  const lab = labDescriptors(locale).find((l) => l.id === id);
  if (!lab) throw new Error(`no lab ${id}`);
  return lab;
}

function pair(a: string, b: string): [string, Build] | [] {
  const first = byName.get(a);
  const second = byName.get(b);
  if (!first || !second) return [];
  return [`${a} compared with ${b}`, (locale) => compareChart(first, second, labOf(first.lab, locale), inputs(locale))];
}

const CHARTS: [string, Build][] = [
  ...RUNS.map(([name, record]): [string, Build] => [name, (locale) => runChart(record, labOf(record.lab, locale), inputs(locale))]),
  ...RUNS.filter(([name]) => name.startsWith('h100-') && !name.endsWith('-peers')).flatMap(([name]) => [
    pair(name, name.replace('h100-', 'cpu-')),
    pair(`${name}-peers`, name),
  ]).filter((c): c is [string, Build] => c.length === 2),
  // A WebGPU run beside the CUDA run of the same lab.
  ...RUNS.filter(([name]) => name.startsWith('lavapipe-')).map(([name]) => pair(name, name.replace('lavapipe-', 'h100-'))).filter((c): c is [string, Build] => c.length === 2),
  ...KERNEL_RUNS.filter(([, run]) => run.result !== null).map(([name, run]): [string, Build] => [
    name,
    (locale) => {
      if (!run.result) throw new Error(`${name} has no result`);
      return kernelRunChart(run.result, exerciseDefinition(run.exercise).metric, inputs(locale));
    },
  ]),
];

// The report's chart (800 CSS pixels wide), and the app's: the centre of a 1024-pixel window (about 600 wide, the
// least height the lab page gives it) and of a wide one; each as tall as the chart needs where it needs more.
const SIZES = [
  { where: 'the report', width: 800, height: 450, scale: 2 },
  { where: 'a laptop’s window', width: 600, height: 260, scale: 1 },
  { where: 'a wide window', width: 1000, height: 460, scale: 1 },
];

function problems(build: Build, locale: Locale, size: (typeof SIZES)[number]): string[] {
  return inReportLocale(locale, () => {
    const chart = build(locale);
    const drawn = { ...reportChartSize(chart.minHeight), width: size.width, height: Math.max(size.height, chart.minHeight), scale: size.scale };
    return withHeadlessChart(chart.config, drawn, (_chart, canvas) => {
      const drawnTexts = texts.get(canvas.getContext('2d')) ?? [];
      if (drawnTexts.length === 0) return ['nothing was drawn'];
      return describeProblems(textProblems(drawnTexts, canvas.width, canvas.height));
    });
  });
}

describe('every text a chart draws', () => {
  it('covers every recorded run, its comparisons and the kernel runs', () => {
    expect(RUNS.length).toBeGreaterThanOrEqual(21);
    expect(CHARTS.length).toBeGreaterThanOrEqual(RUNS.length + 14 + 10);
  });

  it.each(CHARTS.flatMap(([name, build]) => (['en', 'es'] as const).map((locale) => [name, locale, build] as const)))(
    '%s (%s): no two texts overlap and none leaves the canvas',
    (_name, locale, build) => {
      for (const size of SIZES) expect(problems(build, locale, size), `at ${size.where}'s size`).toEqual([]);
    },
  );
});
