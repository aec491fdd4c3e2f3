// The kernel playground in Chromium, twice over. On this machine (serve mode for real: no GPU, no NVRTC): the six
// exercises with their statements and signatures, the starter in the editor, a draft that survives a reload, Run
// disabled with the reason, a reference kernel loaded into the editor. On the recorded H100 session (its kernel runs
// under tests/fixtures/kernel-runs/): a verified run's chart, occupancy and comparisons, a compile error's marker on
// its line, a wrong result's first bad indices. Every page scanned by axe, none wider than the window; screenshots
// under test-results/screenshots/playground-*.png.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import type { ExerciseDescriptor, KernelRun } from '../../main/common/playground.ts';
import { exerciseDescriptors } from '../../main/playground/descriptors.ts';
import { defaultSourceRoots } from '../../main/sources/kernel-sources.ts';
import { startRecordedH100, startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

const exercises: ExerciseDescriptor[] = await exerciseDescriptors('en', defaultSourceRoots());
function exercise(id: string): ExerciseDescriptor {
  const found = exercises.find((e) => e.id === id);
  if (!found) throw new Error(`no exercise ${id}`);
  return found;
}

async function open(page: Page, server: ServeProcess, hash: string): Promise<void> {
  await page.goto(server.url);
  await page.goto(`${server.origin}/${hash}`);
}

// The editor's text, line by line as CodeMirror draws it (only what is in view; a kernel is a screenful).
// The whole text, from the editor's own state: CodeMirror lays out only the lines near the view, and a long kernel with
// its comments wrapped beside the result runs past it.
// (CodeMirror's own EditorView.findFromDOM reads it the same way: the content's tile, its root, its view.)
async function editorText(page: Page): Promise<string> {
  type Content = { cmTile?: { root?: { view?: { state: { doc: { toString(): string } } } } } };
  return page.locator('.cm-content').evaluate((el) => (el as unknown as Content).cmTile?.root?.view?.state.doc.toString() ?? '');
}

async function scan(page: Page, shot: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.waitForTimeout(300);
  await page.screenshot({ path: `test-results/screenshots/${shot}.png`, fullPage: true });
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')}`)).toEqual([]);
}

test.describe('on this machine (no GPU, no NVRTC)', () => {
  let serve: ServeProcess;
  test.beforeAll(async () => {
    serve = await startServe();
  });
  test.afterAll(async () => serve.stop());

  test('lists the six exercises, shows a statement and the signature, and the starter in the editor', async ({ page }) => {
    await open(page, serve, '#/playground');
    await expect(page).toHaveURL(/#\/playground\/polynomial-fp32$/);
    const list = page.getByRole('navigation', { name: 'Exercises' }).getByRole('link');
    await expect(list).toHaveCount(6);
    expect(await list.allInnerTexts()).toEqual(exercises.map((e) => expect.stringContaining(e.title)));
    await page.getByTestId('exercise-saxpy').click();
    const saxpy = exercise('saxpy');
    await expect(page.getByRole('heading', { level: 2, name: saxpy.title })).toBeVisible();
    await expect(page.getByTestId('exercise-statement')).toContainText(saxpy.statement[0] ?? '');
    await expect(page.getByTestId('exercise-signature')).toContainText('__global__ void saxpy(');
    const starter = saxpy.kernels.find((k) => k.kind === 'starter');
    await expect.poll(() => editorText(page)).toBe(starter?.text);
    await expect(page.getByTestId('draft-state')).toHaveText('Starter kernel, not edited yet');
    // Hints one at a time.
    await page.getByTestId('show-hint').click();
    await expect(page.getByTestId('hints').locator('li')).toHaveCount(1);
    await expect(page.getByTestId('show-hint')).toHaveText(`Show the next hint (2 of ${saxpy.hints.length})`);
  });

  test('disables Run with the reason, and keeps everything else usable', async ({ page }) => {
    await open(page, serve, '#/playground/reduction');
    const notice = page.getByTestId('playground-unavailable');
    await expect(notice).toContainText('Kernels cannot be compiled or run here');
    const run = page.getByTestId('run-kernel');
    await expect(run).toBeDisabled();
    const reason = (await notice.locator('p').first().innerText()).replace('Kernels cannot be compiled or run here: ', '');
    // Said beside the button, not in a tooltip, and read out with it.
    await expect(page.getByTestId('run-disabled-reason')).toBeVisible();
    await expect(page.getByTestId('run-disabled-reason')).toHaveText(`Run is not available: ${reason}`);
    await expect(run).toHaveAccessibleDescription(`Run is not available: ${reason}`);
    // The launch form still checks what is typed, naming the field.
    await page.getByTestId('launch-block-x').fill('2048');
    await expect(page.getByTestId('launch-problems')).toContainText('Block x can be at most 1024, a limit of CUDA; got 2048.');
    await scan(page, 'playground-unavailable-light');
  });

  test('keeps a draft across a reload, and loads a reference kernel into the editor', async ({ page }) => {
    await open(page, serve, '#/playground/sgemm');
    const sgemm = exercise('sgemm');
    await expect.poll(() => editorText(page)).toContain('__global__');
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n// my own tiling, take 1');
    await expect(page.getByTestId('draft-state')).toHaveAttribute('data-state', 'saved');
    await page.reload();
    await expect.poll(() => editorText(page)).toContain('// my own tiling, take 1');

    const reference = sgemm.kernels.find((k) => k.kind === 'reference');
    if (!reference) throw new Error('sgemm has a reference kernel');
    await page.getByTestId(`load-${reference.id}`).click();
    await expect(page.getByTestId('draft-state')).toHaveAttribute('data-state', 'editing');
    await expect.poll(() => editorText(page)).toBe(reference.text);
    await expect(page.getByTestId('loaded-message')).toContainText(reference.title);
    // The launch form takes the reference's launch header: the shared tiles need blocks of 32 × 32 (issue 24).
    await expect(page.getByTestId('launch-block-x')).toHaveValue('32');
    await expect(page.getByTestId('launch-block-y')).toHaveValue('32');
    await expect(page.getByTestId('launch-header')).toContainText('block=32x32, grid=cover');
    await expect(page.getByTestId('draft-state')).toHaveAttribute('data-state', 'saved');
    await page.reload();
    await expect.poll(() => editorText(page)).toBe(reference.text);
  });

  test('marks a refused directive where it stands as it is typed, before Run, in the reader’s language', async ({ page }) => {
    await open(page, serve, '#/playground/saxpy');
    await expect.poll(() => editorText(page)).toContain('__global__');
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('/**/#include "/etc/passwd"\n');
    const refused = page.getByTestId('diagnostic').first();
    await expect(refused).toContainText('line 1, col 5');
    await expect(refused).toContainText('The directive #include is not available');
    await expect(page.locator('.cm-lint-marker-error')).toHaveCount(1);
    await page.screenshot({ path: 'test-results/screenshots/playground-refused-directive.png' });
    // The line taken out again: the mark goes with it.
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Backspace');
    await expect(page.getByTestId('diagnostic')).toHaveCount(0);
  });

  for (const [width, height] of [
    [1440, 900],
    [800, 900],
  ] as const) {
    test(`gives the editor the window's height, with Run in view beside its reason, at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await open(page, serve, '#/playground/saxpy');
      await expect.poll(() => editorText(page)).toContain('__global__');
      await page.getByTestId('kernel-editor').scrollIntoViewIfNeeded();
      const editor = await page.locator('.cm-editor').boundingBox();
      if (!editor) throw new Error('the editor is laid out');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      if (width > 900) {
        // The editor and the launch below it fill the window once scrolled to: the editor takes what the launch
        // leaves, and Run is on screen with it.
        await page.evaluate(() => document.querySelector('[data-testid="kernel-editor"]')?.closest('section')?.scrollIntoView());
        const run = await page.getByTestId('run-kernel').boundingBox();
        expect(editor.height).toBeGreaterThan(height * 0.4);
        expect((run?.y ?? Infinity) + (run?.height ?? 0)).toBeLessThanOrEqual(height);
      } else {
        // A narrow window scrolls past an editor of at least 24rem.
        expect(editor.height).toBeGreaterThanOrEqual(24 * 15);
      }
      await expect(page.getByTestId('run-disabled-reason')).toBeVisible();
      await page.screenshot({ path: `test-results/screenshots/playground-editor-${width}.png` });
    });
  }

  for (const [theme, language] of [
    ['light', 'en'],
    ['dark', 'en'],
    ['light', 'es'],
    ['dark', 'es'],
  ] as const) {
    test(`fits the window and passes axe, ${theme}, ${language}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(serve.url);
      await page.evaluate((l) => localStorage.setItem('gpu-lab.language', l), language);
      await open(page, serve, '#/playground/transpose');
      await expect(page.getByTestId('exercise-statement')).toBeVisible();
      await expect.poll(() => editorText(page)).toContain('__global__');
      await page.getByTestId('kernel-starter').locator('summary').click();
      await scan(page, `playground-${language}-${theme}`);
    });
  }
});

// The H100's kernel runs, recorded by the lead on the GPU machine.
const kernelRunsDir = join('tests', 'fixtures', 'kernel-runs');
const recordedRuns: KernelRun[] = existsSync(kernelRunsDir)
  ? readdirSync(kernelRunsDir)
      .filter((n) => n.endsWith('.json'))
      .map((n) => JSON.parse(readFileSync(join(kernelRunsDir, n), 'utf8')) as KernelRun)
  : [];
function recorded(match: (run: KernelRun) => boolean, what: string): KernelRun {
  const run = recordedRuns.find(match);
  if (!run) throw new Error(`no recorded kernel run is ${what} (tests/fixtures/kernel-runs/)`);
  return run;
}

test.describe('the recorded H100 session', () => {
  test.skip(recordedRuns.length === 0, 'the H100 kernel runs are not recorded yet (tests/fixtures/kernel-runs/)');
  let server: ServeProcess;
  test.beforeAll(async () => {
    server = await startRecordedH100();
  });
  test.afterAll(async () => server.stop());

  for (const theme of ['light', 'dark'] as const) {
    test(`a verified run shows its chart, its occupancy and the kernels beside it, ${theme}`, async ({ page }) => {
      const run = recorded((r) => r.status === 'verified' && r.exercise === 'sgemm', 'a verified SGEMM');
      const result = run.result;
      if (!result?.launch) throw new Error('a verified run has a launch');
      await page.emulateMedia({ colorScheme: theme });
      await open(page, server, `#/playground/runs/${run.id}`);
      await expect(page.getByTestId('kernel-run-badge')).toHaveText('Verified');
      const drawn = [result.throughput, ...result.comparisons.map((c) => c.throughput)].filter((x) => x !== null).length;
      await expect(page.getByTestId('kernel-run-chart')).toHaveAttribute('data-bar-count', String(drawn));
      await expect(page.getByTestId('launch-occupancy').locator('dd')).toHaveText(`${Math.round(result.launch.occupancy * 100)} %`);
      await expect(page.getByTestId('comparison')).toHaveCount(result.comparisons.length);
      for (const c of result.comparisons) await expect(page.getByTestId('comparisons')).toContainText(c.title);
      await scan(page, `playground-h100-verified-${theme}`);
    });
  }

  test('shows the PTX and the SASS of a run beside its source: a tab each, every run of lines under its line of the source, a click puts the cursor there', async ({ page }) => {
    const run = recorded((r) => (r.result?.listings?.length ?? 0) === 2, 'a run with its PTX and SASS');
    await open(page, server, `#/playground/runs/${run.id}`);
    const listings = page.getByTestId('kernel-listings');
    await expect(listings.getByRole('tab')).toHaveText(['PTX', 'SASS']);
    await expect(listings.getByRole('tab', { name: 'PTX' })).toHaveAttribute('aria-selected', 'true');
    const source = run.source.split('\n');
    const loop = source.findIndex((l) => l.includes('for (int p = 0')) + 1;
    // The loop's multiply-add sits under the loop's line, in the PTX…
    const ptxLoop = page.getByTestId('listing-ptx').getByTestId('listing-source-line').filter({ hasText: 'for (int p = 0' }).first();
    await expect(ptxLoop).toContainText(String(loop));
    await expect(page.getByTestId('listing-ptx')).toContainText('fma.rn.f32');
    // …and in the SASS, reached with the arrow key as a tab list is.
    await listings.getByRole('tab', { name: 'PTX' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(listings.getByRole('tab', { name: 'SASS' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('listing-sass')).toContainText('FFMA');
    await expect(page.getByTestId('listing-sass')).toContainText('nvdisasm 13.0');
    // A click on a line of the source puts the editor's cursor on it.
    await page.getByTestId('listing-sass').getByTestId('listing-source-line').filter({ hasText: 'for (int p = 0' }).first().click();
    await expect(page.locator('.cm-activeLine')).toContainText('for (int p = 0');
    await scan(page, 'playground-h100-listings');
  });

  test('the workbench shows the newest run of the exercise; the history opens a run, whose source goes back into the editor', async ({ page }) => {
    const runs = recordedRuns.filter((r) => r.exercise === 'saxpy').sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const oldest = runs.at(-1);
    if (!oldest) throw new Error('a recorded SAXPY run');
    await open(page, server, '#/playground/saxpy');
    await expect(page.getByTestId('playground-ready')).toContainText('NVIDIA H100');
    await expect(page.getByTestId('kernel-history-row')).toHaveCount(runs.length);
    await expect(page.getByTestId('kernel-run-panel')).toBeVisible();
    // Nothing is measured in a recorded session: main refuses, and the page says so with main's code.
    await page.getByTestId('run-kernel').click();
    await expect(page.getByTestId('run-refused')).toContainText('CUDA_UNAVAILABLE');

    await page.getByTestId('kernel-history-row').last().getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`#/playground/runs/${oldest.id}$`));
    await page.getByTestId('restore-source').click();
    await expect(page).toHaveURL(/#\/playground\/saxpy$/);
    await expect.poll(() => editorText(page)).toBe(oldest.source);
  });

  test('says beside Run why it is off: a source the playground refuses, then launch values that do not check', async ({ page }) => {
    await open(page, server, '#/playground/reduction');
    await expect(page.getByTestId('playground-ready')).toContainText('NVIDIA H100');
    await expect.poll(() => editorText(page)).toContain('__global__');
    const run = page.getByTestId('run-kernel');
    const reason = page.getByTestId('run-disabled-reason');
    await expect(run).toBeEnabled();
    await expect(reason).toHaveCount(0);
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('#include <cstdio>\n');
    await expect(run).toBeDisabled();
    await expect(reason).toHaveText('Run is off until the source passes the playground’s check: fix line 1, col 1 first.');
    await expect(run).toHaveAccessibleDescription('Run is off until the source passes the playground’s check: fix line 1, col 1 first.');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Backspace');
    await expect(run).toBeEnabled();
    await page.getByTestId('launch-block-x').fill('2048');
    await page.getByTestId('launch-size').fill('0');
    await expect(run).toBeDisabled();
    await expect(reason).toHaveText('Run is off until the launch values are correct: fix the 2 problems above first.');
    await expect(run).toHaveAccessibleDescription('Run is off until the launch values are correct: fix the 2 problems above first.');
    await scan(page, 'playground-h100-run-off');
  });

  for (const language of ['en', 'es'] as const) {
    test(`a compile error puts a marker on the line the compiler named, ${language}`, async ({ page }) => {
      const run = recorded((r) => r.status === 'compile-error', 'a compile error');
      const diagnostic = run.result?.compile.diagnostics.find((d) => d.severity === 'error');
      if (!diagnostic) throw new Error('a compile error has an error diagnostic');
      await page.goto(server.url);
      await page.evaluate((l) => localStorage.setItem('gpu-lab.language', l), language);
      await open(page, server, `#/playground/runs/${run.id}`);
      const line = page.locator('.cm-content .cm-line').nth(diagnostic.line - 1);
      await expect(line.locator('.cm-lintRange-error')).toHaveCount(1);
      await expect(page.getByTestId('diagnostic').first()).toContainText(diagnostic.message);
      // "line L, col C" moves the cursor there.
      await page.getByTestId('diagnostic').first().getByRole('button').click();
      await expect(page.locator('.cm-activeLine')).toHaveText(await line.innerText());
      await scan(page, `playground-h100-compile-error-${language}`);
    });
  }

  test('a wrong result lists the first bad indices', async ({ page }) => {
    const run = recorded((r) => r.status === 'verification-failed', 'a failed verification');
    const mismatches = run.result?.verification?.mismatches ?? [];
    await open(page, server, `#/playground/runs/${run.id}`);
    await expect(page.getByTestId('kernel-run-badge')).toHaveText('Wrong result');
    const rows = page.getByTestId('mismatch');
    await expect(rows).toHaveCount(mismatches.length);
    expect(await rows.locator('td:first-child').allInnerTexts()).toEqual(mismatches.map((m) => String(m.index)));
  });

  test('a kernel stopped by the watchdog says so, and that the compute host was restarted', async ({ page }) => {
    const run = recorded((r) => r.status === 'failed' && r.error?.code === 'TIMEOUT', 'a watchdog timeout');
    await open(page, server, `#/playground/runs/${run.id}`);
    await expect(page.getByTestId('kernel-run-error')).toContainText(`TIMEOUT: ${run.error?.message ?? ''}`);
    await expect(page.getByTestId('kernel-run-error')).toContainText('The compute host that ran it was restarted');
  });
});
