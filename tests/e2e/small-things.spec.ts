// The lab page's small things, in a laptop's window on the recorded H100 session: a disabled Cancel reads as off,
// not as a red warning; the device picker fits the rail and names the device in full on hover; each parameter's
// help is one line with the rest a click away; and the list of matrix sizes shows its whole value.
import { expect, test } from '@playwright/test';
import type { Locator } from '@playwright/test';

import { startRecordedH100 } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

let server: ServeProcess;
test.beforeAll(async () => {
  server = await startRecordedH100();
});
test.afterAll(async () => server.stop());
test.use({ viewport: { width: 1280, height: 720 } });

// How tall one line of an element's text is.
const lineHeight = (el: Locator): Promise<number> =>
  el.evaluate((e) => {
    const style = getComputedStyle(e);
    return style.lineHeight === 'normal' ? Number.parseFloat(style.fontSize) * 1.2 : Number.parseFloat(style.lineHeight);
  });

test('a disabled Cancel has no red about it', async ({ page }) => {
  await page.goto(server.url);
  await page.goto(`${server.origin}/#/labs/matmul-breakeven`);
  const cancel = page.getByTestId('cancel');
  await expect(cancel).toBeDisabled();
  const { red, border, text } = await cancel.evaluate((el) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--bad)';
    document.body.append(probe);
    const bad = getComputedStyle(probe).color;
    probe.remove();
    return { red: bad, border: getComputedStyle(el).borderTopColor, text: getComputedStyle(el).color };
  });
  expect(border).not.toBe(red);
  expect(text).not.toBe(red);
});

test('the device picker fits the rail, and names the device in full on hover', async ({ page }) => {
  await page.goto(server.url);
  const picker = page.getByTestId('device-picker');
  await expect(picker).toHaveValue('cuda:0');
  await expect(picker).toHaveAttribute('title', /^cuda:0 — NVIDIA H100 80GB HBM3\n/);
  // The chosen option's words fit in the box, beside the select's own arrow.
  const room = await picker.evaluate((el) => {
    const select = el as HTMLSelectElement;
    const style = getComputedStyle(select);
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return -1;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = select.options[select.selectedIndex]?.text ?? '';
    return select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight) - context.measureText(text).width;
  });
  expect(room).toBeGreaterThanOrEqual(0);
  const rail = await page.locator('.app-rail').boundingBox();
  const box = await picker.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual((rail?.x ?? 0) + (rail?.width ?? 0));
});

test('each parameter’s help is one line, the rest a click away', async ({ page }) => {
  await page.goto(server.url);
  for (const lab of ['transfer', 'elementwise-breakeven', 'matmul-breakeven']) {
    await page.goto(`${server.origin}/#/labs/${lab}`);
    const helps = page.getByTestId('param-help');
    await expect(helps.first()).toBeVisible();
    for (const help of await helps.all()) {
      const box = await help.boundingBox();
      expect(box?.height ?? Infinity, `${lab}: ${await help.textContent()}`).toBeLessThan((await lineHeight(help)) * 1.5);
    }
  }
  // The transfer lab's smallest copy: its help does not fit one line; "More" shows all of it, "Less" one line again.
  await page.goto(`${server.origin}/#/labs/transfer`);
  const field = page.locator('.param', { has: page.getByLabel('Smallest copy') });
  const help = field.getByTestId('param-help');
  const toggle = field.getByTestId('param-help-toggle');
  await expect(help).toContainText('= 1 KiB');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  expect(await help.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  expect((await help.boundingBox())?.height ?? 0).toBeGreaterThan((await lineHeight(help)) * 1.5);
  await toggle.click();
  expect((await help.boundingBox())?.height ?? Infinity).toBeLessThan((await lineHeight(help)) * 1.5);
});

test('the matrix sizes show their whole value', async ({ page }) => {
  await page.goto(server.url);
  await page.goto(`${server.origin}/#/labs/matmul-breakeven`);
  const sizes = page.getByLabel('Matrix sizes N', { exact: true });
  await expect(sizes).toHaveValue('50, 100, 200, 500, 1000, 2000, 5000');
  const hidden = await sizes.evaluate((el) => ({ wide: el.scrollWidth - el.clientWidth, tall: el.scrollHeight - el.clientHeight }));
  expect(hidden).toEqual({ wide: 0, tall: 0 });
  // Longer still: the box grows with it.
  await sizes.fill('16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384');
  const grown = await sizes.evaluate((el) => ({ wide: el.scrollWidth - el.clientWidth, tall: el.scrollHeight - el.clientHeight }));
  expect(grown).toEqual({ wide: 0, tall: 0 });
});
