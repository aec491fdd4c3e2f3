// A chart that holds still while a run fills it: on this machine's CPU, in Chromium against a real serve-mode server,
// the elementwise lab run with small sizes. From the first frame the chart has laid out the run's plan to after the
// run has ended, the chart keeps its size and its plot keeps its place (the value axis's title, written where the
// plot begins, does not move: legend rows appearing as series arrive would push it), and the findings, laid out unseen
// while the run goes on, do not grow when it ends, so they push nothing under them down.
import { expect, test } from '@playwright/test';

import type { DrawnText } from '../unit/renderer/charts/text-recorder.ts';
import { recordChartTexts } from './support/chart-texts.ts';
import { startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

let serve: ServeProcess;
test.beforeAll(async () => {
  serve = await startServe();
});
test.afterAll(async () => serve.stop());

interface Frame {
  planned: number;
  live: boolean;
  canvas: number;
  // The box the canvas fills: Chart.js follows it within a frame or two.
  plot: number;
  // The middle of the value axis's title, in canvas pixels; null before it is drawn.
  title: number | null;
  findings: number;
}

test('the chart and its plot keep their place from the run’s plan on, and the findings theirs when it ends', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await recordChartTexts(page);
  await page.goto(serve.url);
  await page.getByTestId('device-picker').selectOption('cpu');
  await page.goto(`${serve.origin}/#/labs/elementwise-breakeven`);
  for (const [name, value] of Object.entries({ minExponent: '3', maxExponent: '7', pointsPerDecade: '2', repeats: '10' })) {
    await page.getByTestId(`param-${name}`).fill(value);
  }
  await expect(page.getByTestId('run')).toBeEnabled();
  // Every frame, while the run's results are shown.
  await page.evaluate(() => {
    const frames: Frame[] = [];
    (window as unknown as { seenFrames: Frame[] }).seenFrames = frames;
    const store = (window as unknown as { __chartTexts: WeakMap<object, DrawnText[]> }).__chartTexts;
    const look = (): void => {
      const results = document.querySelector('.run-results');
      const chart = results?.querySelector('[data-testid="run-chart"]');
      const canvas = chart?.querySelector('canvas');
      const findings = results?.querySelector('.findings-card');
      const ctx = canvas?.getContext('2d');
      if (results && chart && canvas && findings && ctx) {
        const title = (store.get(ctx) ?? []).find((t) => /is faster\)/.test(t.text));
        frames.push({
          planned: Number(chart.getAttribute('data-planned-points')),
          live: results.getAttribute('data-status') === 'running',
          canvas: canvas.getBoundingClientRect().height,
          plot: chart.querySelector('.plot')?.getBoundingClientRect().height ?? 0,
          title: title ? Math.round((title.top + title.bottom) / 2) : null,
          findings: findings.getBoundingClientRect().height,
        });
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-status')).toContainText('Completed');
  await expect(page.getByTestId('findings')).toBeVisible();
  await page.waitForTimeout(500);
  const frames = await page.evaluate(() => (window as unknown as { seenFrames: Frame[] }).seenFrames);
  // From the first frame the chart fills the box its plan asked for and has drawn its title.
  const first = frames.findIndex((f) => f.live && f.planned > 0 && f.canvas === f.plot && f.title !== null);
  expect(first, 'the chart never drew the run’s plan').toBeGreaterThanOrEqual(0);
  const held = frames.slice(first);
  const lastLive = held.findLastIndex((f) => f.live);
  expect(lastLive, 'the run never ended on the page').toBeLessThan(held.length - 1);
  expect(new Set(held.map((f) => f.canvas)), 'the canvas’s heights').toEqual(new Set([held[0]?.canvas]));
  expect(new Set(held.map((f) => f.title)), 'where the plot begins').toEqual(new Set([held[0]?.title]));
  const ended = held.slice(lastLive + 1);
  expect(Math.max(...ended.map((f) => f.findings)), 'the findings’ height once the run ended').toBeLessThanOrEqual(held[lastLive]?.findings ?? 0);
});
