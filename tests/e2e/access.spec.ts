// Who may use a serve-mode server: only the holder of the printed link. Without the token the page says where to
// find the link and the WebSocket is refused; a page of another origin cannot open the WebSocket even with the
// token; with the link the app opens, the token leaves the address bar, and a reload still works.
import { expect, test } from '@playwright/test';
import WebSocket from 'ws';

import { startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

let serve: ServeProcess;
test.beforeAll(async () => {
  serve = await startServe();
});
test.afterAll(async () => {
  await serve.stop();
});

function upgrade(url: string, origin: string): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { origin });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => undefined);
  });
}

test('without the token the page explains where the link is, and nothing of the app loads', async ({ page }) => {
  const response = await page.goto(`${serve.origin}/`);
  expect(response?.status()).toBe(401);
  await expect(page.getByRole('heading', { name: 'GPU Lab needs its link' })).toBeVisible();
  const asset = await page.request.get(`${serve.origin}/index.html`);
  expect(asset.status()).toBe(401);
});

test('the WebSocket is refused without the token, with a wrong one, and from another origin', async () => {
  const api = `${serve.origin.replace('http', 'ws')}/api`;
  expect(await upgrade(api, serve.origin)).toBe(401);
  expect(await upgrade(`${api}?token=${'x'.repeat(serve.token.length)}`, serve.origin)).toBe(401);
  expect(await upgrade(`${api}?token=${serve.token}`, 'http://evil.example')).toBe(403);
  expect(await upgrade(`${api}?token=${serve.token}`, serve.origin)).toBe('open');
});

test('the link opens the app, the token leaves the address bar, and a reload keeps working', async ({ page }) => {
  await page.goto(serve.url);
  expect(page.url()).not.toContain('token=');
  await expect(page.getByRole('link', { name: 'GPU Lab' })).toBeVisible();
  await expect(page.getByTestId('device-picker')).toContainText('CPU');
  await page.reload();
  await expect(page.getByTestId('device-picker')).toContainText('CPU');
  const headers = (await page.request.get(`${serve.origin}/`)).headers();
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
});

test('the printed link is on a line of its own, ready to click', async () => {
  expect(serve.output()).toMatch(/^ {2}http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/m);
});
