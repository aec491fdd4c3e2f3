// A class in three browsers: two students join from the class link (one whose name is HTML), each runs a lab on this
// machine's CPU and finds only their own run (the other's run page is a run that does not exist); the teacher's page
// shows both students' runs in the class's table, and exports the class's PDF, read back with poppler. And the
// teacher's page at work: the students' runs in the queue cancelled (one waiting for the device, one behind it), the
// caps set (a student's run over them refused), a student removed (their page cut off).
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Browser, Page } from '@playwright/test';

import { DeviceLocks } from '../../main/engine/device-lock.ts';
import { pdfInfo, pdfText, spaced, tempDir } from '../unit/reports/pdf-tools.ts';
import { joinAs, startClass } from './support/class-serve.ts';
import type { ClassServe } from './support/class-serve.ts';

const HOSTILE = '<b>Ana</b> "O\'Neil"';

let serve: ClassServe;
test.beforeAll(async () => {
  serve = await startClass();
});
test.afterAll(async () => {
  await serve.stop();
});

async function studentPage(browser: Browser, name: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await joinAs(page, serve, name);
  return page;
}

// Runs the vector function on the CPU, small, and waits for it; its run id, from the run's page.
async function runSmallLab(page: Page): Promise<string> {
  await page.goto(`${serve.teacher.origin}/?as=student#/labs/vector-function`);
  await page.getByTestId('device-picker').selectOption('cpu');
  for (const [name, value] of Object.entries({ elements: '1000', repeats: '3', warmup: '0' })) await page.getByTestId(`param-${name}`).fill(value);
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-status')).toContainText('Completed', { timeout: 90_000 });
  await page.goto(`${serve.teacher.origin}/?as=student#/runs`);
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await page.getByTestId('run-row').first().getByTestId('open-run').click();
  await page.waitForURL(/#\/runs\//);
  return decodeURIComponent(new URL(page.url()).hash.replace('#/runs/', ''));
}

test('two students run, each sees their own only; the teacher sees both and exports the class’s PDF', async ({ browser }) => {
  test.setTimeout(300_000);
  const ana = await studentPage(browser, HOSTILE);
  const bob = await studentPage(browser, 'Bob');
  const anaRun = await runSmallLab(ana);
  const bobRun = await runSmallLab(bob);
  expect(anaRun).not.toBe(bobRun);

  // Each student's history holds their own run; the other's run page is a run that does not exist.
  for (const [page, own, other] of [[ana, anaRun, bobRun], [bob, bobRun, anaRun]] as const) {
    await page.goto(`${serve.teacher.origin}/?as=student#/runs`);
    await expect(page.getByTestId('run-row')).toHaveCount(1);
    await page.goto(`${serve.teacher.origin}/?as=student#/runs/${encodeURIComponent(other)}`);
    await expect(page.getByRole('alert')).toContainText(`There is no run ${other} of yours`);
    // Nor the class's table: the rail has no link to it, and the page says it is the teacher's.
    await expect(page.getByTestId('nav-class')).toHaveCount(0);
    await page.goto(`${serve.teacher.origin}/?as=student#/class`);
    await expect(page.getByTestId('class-not-teacher')).toBeVisible();
    await expect(page.getByTestId('class-row')).toHaveCount(0);
    expect(own).toBeTruthy();
  }

  // The teacher's page, in a third browser: both students' runs in the class's table, the names as text.
  const teacher = await (await browser.newContext({ acceptDownloads: true })).newPage();
  await teacher.goto(serve.teacher.href);
  await teacher.getByTestId('nav-class').click();
  const lab = teacher.getByTestId('class-lab-vector-function');
  await expect(lab.getByTestId('class-row')).toHaveCount(2);
  await expect(lab.getByTestId('class-student')).toHaveText([HOSTILE, 'Bob']);
  await expect(lab.locator('b')).toHaveCount(0);
  await expect(lab.getByTestId('class-not-run')).toHaveText('Every student has run this lab.');
  await expect(teacher.getByTestId('class-student-item')).toHaveCount(2);
  expect((await new AxeBuilder({ page: teacher }).include('[data-testid="class-view"]').analyze()).violations.map((v) => v.id)).toEqual([]);

  const [download] = await Promise.all([teacher.waitForEvent('download'), teacher.getByTestId('export-class-pdf').click()]);
  expect(download.suggestedFilename()).toMatch(/^GPU Lab – HPC 2026 – \d{4}-\d\d-\d\d\.pdf$/);
  const path = join(tempDir(), 'class.pdf');
  await download.saveAs(path);
  const info = pdfInfo(path);
  expect(info.Title).toBe('Class report: HPC 2026');
  expect(Number(info.Pages)).toBeGreaterThanOrEqual(3);
  const text = spaced(pdfText(path));
  expect(text).toContain('A vector function: loops, threads, copies and kernel fusion');
  expect(text).toContain(`${HOSTILE} · A vector function`);
  expect(text).toContain('Bob · A vector function');
  expect(text).toContain(anaRun);
  expect(text).toContain(bobRun);
});

test('the teacher cancels students’ runs in the queue, sets the caps and removes a student, from the class’s page', async ({ browser }) => {
  test.setTimeout(300_000);
  const cleo = await studentPage(browser, 'Cleo');
  const dan = await studentPage(browser, 'Dan');
  const teacher = await (await browser.newContext()).newPage();
  for (const page of [cleo, dan]) {
    await page.goto(`${serve.teacher.origin}/?as=student#/labs/vector-function`);
    await page.getByTestId('device-picker').selectOption('cpu');
    for (const [name, value] of Object.entries({ elements: '1000', repeats: '3', warmup: '0' })) await page.getByTestId(`param-${name}`).fill(value);
  }
  await teacher.goto(serve.teacher.href);
  await teacher.getByTestId('nav-class').click();
  const queue = teacher.getByTestId('class-queue-item');
  // Another program on this machine holds the CPU (the pages have listed the devices already, which reads the CPU):
  // Cleo's run, first in the queue, waits for it, and Dan's waits behind Cleo's, until the teacher cancels both.
  const other = await new DeviceLocks({ dir: serve.lockDir }).acquire(['cpu'], 'bench', 'another program');
  try {
    await cleo.getByTestId('run').click();
    await expect(cleo.getByTestId('class-queue-entry')).toContainText('is running');
    await dan.getByTestId('run').click();
    await expect(dan.getByTestId('class-queue-entry')).toContainText('is queued: 1 ahead of you');
    await expect(queue).toHaveCount(2);
    await expect(queue.nth(0)).toContainText('Cleo: A vector function');
    await expect(queue.nth(1)).toContainText('Dan: A vector function');
    await teacher.getByRole('button', { name: /^Cancel the run of Dan/ }).click();
    await expect(queue).toHaveCount(1);
    await expect(dan.getByTestId('class-queue-entry')).toHaveCount(0);
    await teacher.getByRole('button', { name: /^Cancel the run of Cleo/ }).click();
    await expect(queue).toHaveCount(0);
    await expect(cleo.getByTestId('class-queue-entry')).toHaveCount(0);
    await expect(cleo.getByTestId('run-status')).toContainText('Cancelled');
  } finally {
    await other.release();
  }

  // The caps: one point at most; Cleo's run is refused, naming the cap.
  await teacher.getByTestId('cap-maxPoints').fill('1');
  await teacher.getByTestId('save-caps').click();
  await expect(teacher.getByTestId('class-caps').getByRole('status')).toContainText('Points a run plans: 1;');
  await cleo.getByTestId('run').click();
  await expect(cleo.getByRole('alert').filter({ hasText: 'maxPoints' })).toBeVisible();
  await teacher.getByTestId('cap-maxPoints').fill('400');
  await teacher.getByTestId('save-caps').click();
  await expect(teacher.getByTestId('class-caps').getByRole('status')).toContainText('Points a run plans: 400;');

  // Removed: asked first, then gone from the list, and Cleo's page cut off, back at the class's join page.
  const before = await teacher.getByTestId('class-student-item').count();
  await teacher.getByRole('button', { name: 'Remove Cleo' }).click();
  await teacher.getByTestId('confirm-remove').click();
  await expect(teacher.getByTestId('class-student-item')).toHaveCount(before - 1);
  await expect(teacher.getByTestId('class-students')).not.toContainText('Cleo');
  await expect(cleo.getByTestId('join-page')).toBeVisible();
  await expect(cleo.getByTestId('class-bar')).toHaveCount(0);
});
