// The playground as Compiler Explorer lays out a source and what it compiles to, on the recorded H100 session's SGEMM
// (its newest run has PTX and SASS): from 1200 px the editor stands beside the result, one window high, the listings
// on the result's side; below 1200 px they stack, the editor first, showing at least 24 lines; at every width a line
// longer than the editor is wide wraps inside it, and no part of the page reaches past the window's edge. The stored
// run's page puts its source beside its result the same way.
import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

import { startRecordedH100 } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

let server: ServeProcess;
test.beforeAll(async () => {
  server = await startRecordedH100();
});
test.afterAll(async () => server.stop());

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

async function openSgemm(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.goto(server.url);
  await page.goto(`${server.origin}/#/playground/sgemm`);
  await expect(page.locator('.cm-content')).toContainText('__global__');
  await expect(page.getByTestId('kernel-run-panel')).toBeVisible();
}

// The editor's lines that reach past what its scroller shows, and how many lines of text it shows.
async function editorLines(page: Page): Promise<{ cut: number; visible: number; wrapped: boolean }> {
  return page.evaluate(() => {
    const host = document.querySelector('[data-testid="kernel-editor"]');
    const root = host?.shadowRoot;
    const scroller = root?.querySelector('.cm-scroller');
    const lines = root ? Array.from(root.querySelectorAll('.cm-line')) : [];
    if (!scroller || lines.length === 0) throw new Error('no editor');
    const edge = scroller.getBoundingClientRect().left + scroller.clientWidth;
    const lineHeight = Number.parseFloat(getComputedStyle(lines[0] as Element).lineHeight);
    return {
      cut: lines.filter((l) => l.getBoundingClientRect().right > edge + 1).length + (scroller.scrollWidth > scroller.clientWidth + 1 ? 1 : 0),
      visible: Math.floor(scroller.clientHeight / lineHeight),
      // The starter's long comments take more than one line of the editor somewhere.
      wrapped: lines.some((l) => l.getBoundingClientRect().height > lineHeight * 1.5),
    };
  });
}

const sideways = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

for (const [width, height] of [
  [1200, 800],
  [1440, 900],
  [1920, 1080],
] as const) {
  test(`at ${width} px the editor stands beside the result, one window high, the PTX and SASS on the result's side`, async ({ page }) => {
    await openSgemm(page, width, height);
    await page.locator('.desk').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.querySelector('.desk')?.scrollIntoView());
    const editor = await box(page.getByTestId('kernel-editor'));
    const desk = await box(page.locator('.desk'));
    const results = await box(page.getByTestId('kernel-results'));
    const listings = await box(page.getByTestId('kernel-listings'));
    // Source left, what it gave right, on the same rows of the window.
    expect(editor.x + editor.width).toBeLessThanOrEqual(results.x);
    expect(results.y).toBeLessThan(editor.y + editor.height);
    expect(listings.x).toBeGreaterThanOrEqual(results.x);
    // One window high (less the page's margins), the editor taking what the launch leaves.
    expect(desk.height).toBeGreaterThanOrEqual(height - 48);
    expect(Math.abs(results.height - desk.height)).toBeLessThanOrEqual(4);
    expect(editor.height).toBeGreaterThan(height * 0.4);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    expect(await editorLines(page)).toMatchObject({ cut: 0 });
  });
}

for (const [width, height] of [
  [1199, 900],
  [800, 900],
] as const) {
  test(`at ${width} px they stack, the editor first with at least 24 lines in view, its long lines wrapped`, async ({ page }) => {
    await openSgemm(page, width, height);
    const editor = await box(page.getByTestId('kernel-editor'));
    const result = await box(page.getByTestId('kernel-run-panel'));
    expect(result.y).toBeGreaterThanOrEqual(editor.y + editor.height);
    const lines = await editorLines(page);
    expect(lines.visible).toBeGreaterThanOrEqual(24);
    expect(lines.cut).toBe(0);
    expect(lines.wrapped).toBe(true);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
  });
}

test('a stored run’s page puts its source beside its result from 1200 px, and stacks them below', async ({ page }) => {
  await openSgemm(page, 1440, 900);
  await page.getByTestId('open-kernel-run').click();
  await expect(page.getByTestId('stored-kernel-run')).toBeVisible();
  await expect(page.locator('.cm-content')).toContainText('__global__');
  const source = await box(page.getByTestId('kernel-editor'));
  const result = await box(page.getByTestId('kernel-run-panel'));
  expect(source.x + source.width).toBeLessThanOrEqual(result.x);
  expect((await editorLines(page)).cut).toBe(0);
  await page.setViewportSize({ width: 900, height: 900 });
  const stackedSource = await box(page.getByTestId('kernel-editor'));
  expect((await box(page.getByTestId('kernel-run-panel'))).y).toBeGreaterThanOrEqual(stackedSource.y + stackedSource.height);
  expect(await sideways(page)).toBeLessThanOrEqual(0);
});
