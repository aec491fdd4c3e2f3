// A class in real browsers against `gpu-lab serve --classroom` on this machine's CPU: a student opens the class link,
// joins with a name (HTML in it shown as text), sees their place in the queue while the teacher's run holds the
// machine, runs a lab and finds it in their history beside the class's numbers; the join page and the student's
// view read in Spanish too; the teacher's page, in another browser, is the teacher's.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import WebSocket from 'ws';

import { joinAs, startClass } from './support/class-serve.ts';
import type { ClassServe } from './support/class-serve.ts';

let serve: ClassServe;
test.beforeAll(async () => {
  serve = await startClass();
});
test.afterAll(async () => {
  await serve.stop();
});

// The teacher's script: a run that holds the machine until it is cancelled or its medians are sure.
async function teacherHolds(): Promise<{ release(): Promise<void> }> {
  const ws = new WebSocket(`${serve.teacher.origin.replace('http', 'ws')}/api?token=${serve.teacher.searchParams.get('token') ?? ''}`, { origin: serve.teacher.origin });
  await new Promise((resolve) => ws.once('open', resolve));
  const call = (id: number, method: string, args: unknown[]): Promise<{ value: { runId: string } }> =>
    new Promise((resolve) => {
      const onMessage = (data: WebSocket.RawData): void => {
        const frame = JSON.parse(String(data)) as { id?: number; value: { runId: string } };
        if (frame.id !== id) return;
        ws.off('message', onMessage);
        resolve(frame);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, method, args }));
    });
  // It ends by itself once its medians are sure: so it is started just before the student clicks Run, and large.
  const { value } = await call(1, 'runs.startRun', [{ lab: 'vector-function', device: 'cpu', params: { elements: 10_000_000, repeats: 1000 } }]);
  return {
    async release() {
      await call(2, 'runs.cancelRun', [value.runId]);
      ws.close();
    },
  };
}

test('the class link asks for a name, refuses a bad one, and opens the student’s app, the name shown as text', async ({ page }) => {
  await page.goto(serve.classLink.href);
  await expect(page.getByRole('heading', { name: 'Join the class HPC 2026' })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  // Nothing of the app behind the join page: no rail, no labs.
  await expect(page.getByTestId('device-picker')).toHaveCount(0);
  await page.getByLabel('Your name').fill('Ana\u202eevil');
  await page.getByRole('button', { name: 'Join' }).click();
  await expect(page.getByRole('alert')).toContainText('control or invisible character');
  await page.getByLabel('Your name').fill('<img src=x onerror="document.title=1">Ana');
  await page.getByRole('button', { name: 'Join' }).click();
  await expect(page.getByTestId('class-who')).toHaveText('HPC 2026 · <img src=x onerror="document.title=1">Ana');
  await expect(page.getByTestId('class-bar').locator('img')).toHaveCount(0);
  expect(await page.title()).not.toBe('1');
  // Her history is empty: the teacher's and other students' runs are not hers.
  await page.goto(`${serve.teacher.origin}/?as=student#/runs`);
  await expect(page.getByTestId('class-who')).toContainText('Ana');
  await expect(page.getByTestId('history-empty')).toBeVisible();
});

test('a student waits in the queue behind the teacher’s run, then runs a lab and sees it beside the class', async ({ page }) => {
  await joinAs(page, serve, 'Bea');
  await page.goto(`${serve.teacher.origin}/?as=student#/labs/vector-function`);
  await page.getByTestId('device-picker').selectOption('cpu');
  for (const [name, value] of Object.entries({ elements: '1000', repeats: '3', warmup: '0' })) await page.getByTestId(`param-${name}`).fill(value);
  await expect(page.getByTestId('run')).toBeEnabled();
  const hold = await teacherHolds();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('class-queue-entry')).toContainText(/is queued: 1 ahead of you, at most \d+ (s|min) before it starts/);
  expect((await new AxeBuilder({ page }).include('[data-testid="class-bar"]').analyze()).violations.map((v) => v.id)).toEqual([]);
  await hold.release();
  await expect(page.getByTestId('run-status')).toContainText('Completed', { timeout: 60_000 });
  await expect(page.getByTestId('class-queue-entry')).toHaveCount(0);
  await page.goto(`${serve.teacher.origin}/?as=student#/runs`);
  const rows = page.getByTestId('run-row');
  await expect(rows).toHaveCount(1);
  await rows.first().getByTestId('open-run').click();
  await expect(page.getByTestId('class-comparison')).toContainText('You and the class');
  await expect(page.getByTestId('class-comparison').locator('tbody tr').first()).toContainText('(1)');
  expect((await new AxeBuilder({ page }).include('[data-testid="class-comparison"]').analyze()).violations.map((v) => v.id)).toEqual([]);
});

test('the join page and the student’s view read in Spanish', async ({ page }) => {
  await page.goto(serve.classLink.href);
  await page.getByTestId('language-picker').selectOption('es');
  await expect(page.getByRole('heading', { name: 'Únete a la clase HPC 2026' })).toBeVisible();
  await page.getByLabel('Tu nombre').fill('   ');
  await page.getByRole('button', { name: 'Unirme' }).click();
  await expect(page.getByRole('alert')).toContainText('Hace falta un nombre.');
  await page.getByLabel('Tu nombre').fill('Carmen');
  await page.getByRole('button', { name: 'Unirme' }).click();
  await expect(page.getByTestId('class-who')).toHaveText('HPC 2026 · Carmen');
  await page.goto(`${serve.teacher.origin}/?as=student#/labs/vector-function`);
  await page.getByTestId('device-picker').selectOption('cpu');
  for (const [name, value] of Object.entries({ elements: '1000', repeats: '3', warmup: '0' })) await page.getByTestId(`param-${name}`).fill(value);
  await expect(page.getByTestId('run')).toBeEnabled();
  const hold = await teacherHolds();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('class-queue-entry')).toContainText(/está en la cola: 1 por delante de ti, como mucho \d+ (s|min) hasta que empiece/);
  await page.getByRole('button', { name: 'Sacarla de la cola' }).click();
  await expect(page.getByTestId('class-queue-entry')).toHaveCount(0);
  await hold.release();
});

test('the teacher’s link opens the teacher’s page, apart from a student’s in the same browser', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await joinAs(page, serve, 'Dora');
  await page.goto(serve.teacher.href);
  expect(new URL(page.url()).search).toBe('');
  await expect(page.getByTestId('class-who')).toHaveText('HPC 2026 · teacher');
  // The student's pages in the same browser are still Dora's.
  const studentPage = await context.newPage();
  await studentPage.goto(`${serve.teacher.origin}/?as=student`);
  await expect(studentPage.getByTestId('class-who')).toHaveText('HPC 2026 · Dora');
  await context.close();
});
