// The Python panel's interpreter setting in Chromium. In serve mode (`gpu-lab serve --python STUB`, a real server):
// the panel names the server's interpreter and where it was named, offers no way to set it, and the page's own
// WebSocket cannot reach a setter. In the desktop app, faked only at Electron's boundary: the built preload
// (dist/main/electron/preload.cjs) runs in the page over a fake contextBridge and ipcRenderer whose calls reach the
// real IPC handlers (registerIpcApi, registerDesktopIpc, as electron/main.ts registers them) over a real lab host,
// compute host and settings file; the system's file dialog is a stub. There the panel sets a typed path, one from the
// dialog, and the default, asking the interpreter again after each, and refuses a relative path.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { createDesktopSettings } from '../../main/app/desktop-settings.ts';
import type { DesktopSettings } from '../../main/app/desktop-settings.ts';
import { createLabHost } from '../../main/app/lab-host.ts';
import type { LabHost } from '../../main/app/lab-host.ts';
import { SETTINGS_FILE, SettingsStore } from '../../main/app/settings-store.ts';
import type { ApiEventFrame, ApiResponse } from '../../main/common/contract/wire.ts';
import { PYTHON_ENV } from '../../main/common/peer-protocol.ts';
import { appSenderCheck } from '../../main/electron/app-origin.ts';
import type { FrameLike, SenderEvent } from '../../main/electron/app-origin.ts';
import { registerDesktopIpc } from '../../main/electron/desktop-ipc.ts';
import { registerIpcApi } from '../../main/electron/ipc-api.ts';
import { forkLauncher } from '../../main/engine/launcher.ts';
import { rendererDir } from '../../main/serve/renderer-dir.ts';
import { startServer } from '../../main/serve/server.ts';
import type { RunningServer } from '../../main/serve/server.ts';
import { startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

const root = mkdtempSync(join(tmpdir(), 'gpu-lab-e2e-python-'));
test.afterAll(() => rmSync(root, { recursive: true, force: true }));

// An interpreter that exits at once, saying its name: the probe reports it by path, with its last words.
function stubPython(name: string): string {
  const path = join(root, name);
  writeFileSync(path, `#!/bin/sh\necho "this is ${name}" >&2\nexit 3\n`);
  chmodSync(path, 0o755);
  return path;
}

// No serious or critical accessibility violation in the panel, in whichever state it is.
async function accessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).include('[data-testid="python-peers"]').analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')}`)).toEqual([]);
}

async function openDevices(page: Page, url: string): Promise<ReturnType<Page['getByTestId']>> {
  await page.goto(url);
  await page.evaluate(() => (location.hash = '#/devices'));
  const panel = page.getByTestId('python-peers');
  await expect(panel).toBeVisible();
  return panel;
}

test.describe('in a browser (serve mode)', () => {
  let serve: ServeProcess;
  const serverPython = stubPython('server-python');
  test.beforeAll(async () => {
    serve = await startServe({ args: ['--python', serverPython] });
  });
  test.afterAll(async () => {
    await serve.stop();
  });

  test('names the server’s interpreter and offers no way to set it', async ({ page }) => {
    const panel = await openDevices(page, serve.url);
    await expect(panel.getByTestId('python-in-use')).toHaveText(`In use: ${serverPython} (named at the server: gpu-lab serve --python PATH, or GPU_LAB_PYTHON).`);
    await expect(panel.getByTestId('python-server-choice')).toContainText('In a browser the interpreter cannot be chosen');
    await expect(panel.getByTestId('python-missing')).toContainText('this is server-python');
    await expect(panel.locator('input, button, select, textarea')).toHaveCount(0);
    await expect(panel.getByTestId('python-setting')).toHaveCount(0);
    expect(await page.evaluate(() => typeof window.gpuLab)).toBe('undefined');
    await accessible(page);
  });

  test('says so in Spanish too', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('gpu-lab.language', 'es'));
    const panel = await openDevices(page, serve.url);
    await expect(panel.getByTestId('python-server-choice')).toContainText('gpu-lab serve --python RUTA');
    await expect(panel.getByTestId('python-in-use')).toContainText(`En uso: ${serverPython}`);
  });

  test('the page’s own WebSocket finds no method that sets the interpreter', async ({ page }) => {
    await openDevices(page, serve.url);
    const evil = stubPython('evil-python');
    const answers = await page.evaluate(async (path) => {
      const ws = new WebSocket(`ws://${location.host}/api`);
      await new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = reject;
      });
      const asked = ['desktop.setPython', 'desktop.choosePython', 'desktop.resetPython', 'settings.setPython', 'devices.setPython', 'devices.inspectPython'];
      const answers: Record<string, unknown> = {};
      for (const [id, method] of asked.entries()) {
        ws.send(JSON.stringify({ id, method, args: [path] }));
        answers[method] = await new Promise((resolve) => {
          const onMessage = (event: MessageEvent<string>): void => {
            const frame = JSON.parse(event.data) as { id?: number; error?: { code: string } };
            if (frame.id !== id) return;
            ws.removeEventListener('message', onMessage);
            resolve(frame.error?.code ?? 'answered');
          };
          ws.addEventListener('message', onMessage);
        });
      }
      ws.close();
      return answers;
    }, evil);
    expect(answers).toEqual({
      'desktop.setPython': 'UNKNOWN_METHOD',
      'desktop.choosePython': 'UNKNOWN_METHOD',
      'desktop.resetPython': 'UNKNOWN_METHOD',
      'settings.setPython': 'UNKNOWN_METHOD',
      'devices.setPython': 'UNKNOWN_METHOD',
      'devices.inspectPython': 'INVALID_ARGUMENT',
    });
    // The panel, asked again, still names the server's interpreter.
    await page.reload();
    await page.evaluate(() => (location.hash = '#/devices'));
    await expect(page.getByTestId('python-in-use')).toContainText(serverPython);
  });
});

test.describe('in the desktop app, faked at Electron’s boundary', () => {
  const appFrame: FrameLike = { url: 'app://gpu-lab/index.html', processId: 1, routingId: 1 };
  const dataDir = join(root, 'user-data');
  const launchPython = process.env[PYTHON_ENV];
  const dialogAnswers: (string | null)[] = [];
  let lab: LabHost;
  let desktop: DesktopSettings;
  let server: RunningServer;
  const handlers = new Map<string, (event: SenderEvent, ...args: unknown[]) => Promise<ApiResponse>>();
  let sendEvent: (frame: ApiEventFrame) => void = () => undefined;
  let disposeIpc: () => void = () => undefined;

  test.beforeAll(async () => {
    // The person started the app without GPU_LAB_PYTHON.
    delete process.env[PYTHON_ENV];
    let settings: DesktopSettings | null = null;
    lab = createLabHost({
      dataDir,
      supervisor: { launcher: { launch: (env) => forkLauncher.launch({ ...env, ...(settings?.computeHostEnv() ?? {}) }) }, log: () => undefined },
      warn: () => undefined,
      pythonSource: () => settings?.pythonSource() ?? 'default',
    });
    desktop = createDesktopSettings({
      store: SettingsStore.open(dataDir),
      launchEnv: {},
      runsBusy: () => lab.runs.busy,
      runsIdle: () => lab.runs.whenIdle(),
      renewHost: () => lab.supervisor.renew(),
      // The system's file dialog.
      choose: async () => dialogAnswers.shift() ?? null,
    });
    settings = desktop;
    const ipc = { handle: (channel: string, listener: (event: SenderEvent, ...args: unknown[]) => Promise<ApiResponse>) => void handlers.set(channel, listener), removeHandler: (channel: string) => void handlers.delete(channel) };
    const checkSender = appSenderCheck(() => appFrame);
    const a = registerIpcApi({ ipc, api: lab, checkSender, sendEvent: (frame) => sendEvent(frame), log: () => undefined });
    const b = registerDesktopIpc({ ipc, api: desktop, checkSender, log: () => undefined });
    disposeIpc = () => {
      a();
      b();
    };
    // Only to serve the built page: with window.gpuLab present it talks over the fake IPC, never the WebSocket.
    server = await startServer({ api: lab, staticDir: rendererDir() ?? '', port: 0 });
  });

  test.afterAll(async () => {
    disposeIpc();
    await server.close();
    await lab.dispose();
    if (launchPython !== undefined) process.env[PYTHON_ENV] = launchPython;
  });

  // The built preload, run before the page's scripts with Electron's two modules faked: contextBridge puts what it
  // exposes on window, ipcRenderer's calls go to the test's IPC handlers as from the app's main frame.
  async function asTheApp(page: Page): Promise<void> {
    await page.exposeBinding('__ipcInvoke', async (_source, channel: string, args: unknown[]) => {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`No handler on ${channel}`);
      return handler({ senderFrame: appFrame }, ...args);
    });
    sendEvent = (frame) => void page.evaluate((f) => (window as unknown as { __ipcEvent?: (f: unknown) => void }).__ipcEvent?.(f), frame).catch(() => undefined);
    const preload = readFileSync(join('dist', 'main', 'electron', 'preload.cjs'), 'utf8');
    await page.addInitScript({
      content: `(() => {
        const listeners = new Map();
        window.__ipcEvent = (frame) => (listeners.get('gpu-lab:event') ?? []).forEach((l) => l({}, frame));
        const electron = {
          contextBridge: { exposeInMainWorld: (key, value) => { window[key] = value; } },
          ipcRenderer: {
            invoke: (channel, ...args) => window.__ipcInvoke(channel, args),
            on: (channel, l) => listeners.set(channel, [...(listeners.get(channel) ?? []), l]),
            off: (channel, l) => listeners.set(channel, (listeners.get(channel) ?? []).filter((x) => x !== l)),
          },
        };
        const require = (name) => { if (name === 'electron') return electron; throw new Error('the preload may require electron only, not ' + name); };
        const module = { exports: {} };
        (function (require, module, exports) {
${preload}
        })(require, module, module.exports);
      })();`,
    });
  }

  test('sets a typed path, one from the dialog, and the default, asking the interpreter again each time', async ({ page }) => {
    await asTheApp(page);
    const typed = stubPython('venv-python');
    const chosen = stubPython('chosen-python');
    const panel = await openDevices(page, server.url);
    expect(await page.evaluate(() => Object.keys(window.gpuLab?.desktop ?? {}).sort())).toEqual(['choosePython', 'pythonSetting', 'resetPython', 'setPython']);
    await expect(panel.getByTestId('python-server-choice')).toHaveCount(0);
    await expect(panel.getByTestId('python-reset')).toBeDisabled();

    await panel.getByLabel('Interpreter for the peer series').fill(typed);
    await panel.getByRole('button', { name: 'Use this interpreter' }).click();
    await expect(panel.getByTestId('python-in-use')).toHaveText(`In use: ${typed} (chosen in this app’s settings).`);
    await expect(panel.getByTestId('python-missing')).toContainText('this is venv-python');
    await accessible(page);
    expect(JSON.parse(readFileSync(join(dataDir, SETTINGS_FILE), 'utf8'))).toEqual({ python: typed });

    dialogAnswers.push(null, chosen);
    await panel.getByRole('button', { name: 'Choose…' }).click();
    await expect(panel.getByTestId('python-in-use')).toContainText(typed);
    await panel.getByRole('button', { name: 'Choose…' }).click();
    await expect(panel.getByTestId('python-in-use')).toHaveText(`In use: ${chosen} (chosen in this app’s settings).`);
    await expect(panel.getByTestId('python-missing')).toContainText('this is chosen-python');
    await expect(panel.getByLabel('Interpreter for the peer series')).toHaveValue(chosen);

    await panel.getByRole('button', { name: 'Use the default' }).click();
    await expect(panel.getByTestId('python-in-use')).toHaveText('In use: python3 (the default: python3 from the PATH).');
    await expect(panel.getByLabel('Interpreter for the peer series')).toHaveValue('');
    expect(JSON.parse(readFileSync(join(dataDir, SETTINGS_FILE), 'utf8'))).toEqual({ python: null });
  });

  test('refuses a relative path and a file that is not executable, naming them, and keeps the setting', async ({ page }) => {
    await asTheApp(page);
    const plain = join(root, 'not-executable-python');
    writeFileSync(plain, '');
    chmodSync(plain, 0o644);
    const panel = await openDevices(page, server.url);
    await expect(panel.getByTestId('python-in-use')).toContainText('python3');
    const field = panel.getByLabel('Interpreter for the peer series');
    await field.fill('venv/bin/python');
    await field.press('Enter');
    await expect(panel.getByTestId('python-setting-error')).toHaveText('venv/bin/python is a relative path: give the whole path, starting with /');
    await field.fill(plain);
    await field.press('Enter');
    await expect(panel.getByTestId('python-setting-error')).toContainText(`${plain} is not executable`);
    await accessible(page);
    expect((await desktop.pythonSetting()).setting).toBeNull();
  });
});
