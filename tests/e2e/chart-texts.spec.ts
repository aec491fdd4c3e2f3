// On screen as on paper: every text every chart draws in Chromium, recorded as the canvas draws it (the recorder of
// tests/unit/renderer/charts/text-recorder.ts, installed on the page's CanvasRenderingContext2D before the app loads),
// with no two texts overlapping and none off the canvas. Every run of the recorded H100 session (its runs and the
// CPU-only machine's, its kernel runs) and of the peers' runs on its run page, each lab's GPU run compared with its
// CPU-only run and its run with peers, in English and in Spanish, in a wide window and in the project's small one.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { describeProblems, textProblems } from '../unit/renderer/charts/text-recorder.ts';
import { chartTexts, recordChartTexts } from './support/chart-texts.ts';
import { startRecordedH100, startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

interface Fixture {
  id: string;
  name: string;
  lab?: string;
  chart: boolean;
}

function fixtures(folder: string): Fixture[] {
  const dir = join('tests', 'fixtures', folder);
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => {
      const json = JSON.parse(readFileSync(join(dir, n), 'utf8')) as { id: string; lab?: string; result?: { throughput: unknown; comparisons: unknown[] } | null };
      // A kernel run has a chart where something was timed; a lab run always has one.
      const chart = json.result === undefined || (json.result !== null && (Boolean(json.result.throughput) || json.result.comparisons.length > 0));
      return { id: json.id, name: n.replace(/\.json$/, ''), lab: json.lab, chart };
    })
    .filter((f) => f.chart);
}

const RUNS = fixtures('runs');
const PEER_RUNS = fixtures('peer-runs');
const KERNEL_RUNS = fixtures('kernel-runs');
const WINDOWS = [
  { width: 1280, height: 900 },
  { width: 800, height: 900 },
];

interface Visit {
  hash: string;
  chart: string;
}

const byName = (list: Fixture[], name: string): Fixture | undefined => list.find((f) => f.name === name);

function compares(first: Fixture[], second: Fixture[], rename: (name: string) => string): Visit[] {
  return first.flatMap((a) => {
    const b = byName(second, rename(a.name));
    return b && a !== b ? [{ hash: `#/compare/${a.id}/${b.id}`, chart: 'compare-chart' }] : [];
  });
}

const RECORDED: Visit[] = [
  ...RUNS.map((r) => ({ hash: `#/runs/${r.id}`, chart: 'run-chart' })),
  ...compares(RUNS.filter((r) => r.name.startsWith('h100-')), RUNS, (n) => n.replace('h100-', 'cpu-')),
  ...KERNEL_RUNS.map((r) => ({ hash: `#/playground/runs/${r.id}`, chart: 'kernel-run-chart' })),
];
const WITH_PEERS: Visit[] = [
  ...PEER_RUNS.map((r) => ({ hash: `#/runs/${r.id}`, chart: 'run-chart' })),
  ...compares(PEER_RUNS, RUNS, (n) => n.replace(/-peers$/, '')),
];

async function problemsOn(page: Page, origin: string, visit: Visit): Promise<string[]> {
  await page.goto(`${origin}/${visit.hash}`);
  const figure = page.getByTestId(visit.chart).first();
  await expect(figure.locator('canvas')).toHaveAttribute('aria-label', /\S/);
  // The chart settles within a frame or two of its data and its size.
  await page.waitForTimeout(400);
  const charts = await chartTexts(page);
  expect(charts.length, `${visit.hash}: no chart`).toBeGreaterThan(0);
  return charts.flatMap((c) => (c.texts.length === 0 ? ['a chart drew no text'] : describeProblems(textProblems(c.texts, c.width, c.height))).map((p) => `${visit.hash}: ${p}`));
}

function checkAll(server: () => ServeProcess, visits: Visit[]): void {
  for (const size of WINDOWS) {
    for (const locale of ['en', 'es'] as const) {
      test(`${size.width} × ${size.height}, ${locale}: no chart's texts overlap or leave its canvas`, async ({ page }) => {
        test.setTimeout(600_000);
        await page.setViewportSize(size);
        await recordChartTexts(page, locale);
        await page.goto(server().url);
        const problems: string[] = [];
        for (const visit of visits) problems.push(...(await problemsOn(page, server().origin, visit)));
        expect(problems).toEqual([]);
      });
    }
  }
}

test.describe('the recorded H100 session', () => {
  let server: ServeProcess;
  test.beforeAll(async () => {
    server = await startRecordedH100();
  });
  test.afterAll(async () => server.stop());
  checkAll(() => server, RECORDED);
});

test.describe('the runs with the course’s Python', () => {
  let server: ServeProcess;
  test.beforeAll(async () => {
    // The peers' runs and the H100's runs they are compared with, in a data folder of their own.
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-e2e-chart-texts-'));
    mkdirSync(join(dataDir, 'runs'));
    for (const [folder, list] of [['peer-runs', PEER_RUNS], ['runs', RUNS.filter((r) => r.name.startsWith('h100-'))]] as const) {
      for (const f of list) copyFileSync(join('tests', 'fixtures', folder, `${f.name}.json`), join(dataDir, 'runs', `${f.id}.json`));
    }
    server = await startServe({ dataDir });
  });
  test.afterAll(async () => server.stop());
  checkAll(() => server, WITH_PEERS);
});
