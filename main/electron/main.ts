// The Electron app: one window showing the renderer build over app://, the contract over IPC to that window only,
// the compute host as a utility process; or, started by the gpu-lab launcher, the command line without a window
// (cli-mode.ts). This file only wires; each piece is its own file, tested under plain Node.
import { app, BrowserWindow, dialog, ipcMain, protocol, utilityProcess } from 'electron';
import type { OpenDialogOptions } from 'electron';

import { installedCliArgs } from '../cli/installed.ts';
import { IPC_EVENT_CHANNEL } from '../common/contract/wire.ts';
import { createDesktopSettings } from '../app/desktop-settings.ts';
import type { DesktopSettings } from '../app/desktop-settings.ts';
import { createLabHost } from '../app/lab-host.ts';
import type { LabHost } from '../app/lab-host.ts';
import { SettingsStore } from '../app/settings-store.ts';
import { rendererDir } from '../serve/renderer-dir.ts';
import { APP_INDEX_URL, APP_SCHEME, appSenderCheck } from './app-origin.ts';
import { appProtocolHandler } from './app-protocol.ts';
import { appResources } from './app-resources.ts';
import { startCli } from './cli-mode.ts';
import { registerDesktopIpc } from './desktop-ipc.ts';
import { registerIpcApi } from './ipc-api.ts';
import { utilityLauncher } from './utility-launcher.ts';
import { createAppWindow, guardWebContents, preloadPath } from './window.ts';

const log = (line: string): void => console.error(line);

// Before the app is ready, as Electron requires: app:// then behaves like https (standard URLs, a secure context,
// fetch), so the page's 'self' in the CSP is app://gpu-lab.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
// Every renderer sandboxed, not only the window that asks for it in its web preferences.
app.enableSandbox();

function openWindow(labHost: LabHost, settings: DesktopSettings): BrowserWindow {
  const appWindow = createAppWindow(BrowserWindow, preloadPath());
  const checkSender = appSenderCheck(() => (appWindow.isDestroyed() ? null : appWindow.webContents.mainFrame));
  const disposeIpc = registerIpcApi({
    ipc: ipcMain,
    api: labHost,
    checkSender,
    sendEvent: (frame) => {
      if (!appWindow.isDestroyed()) appWindow.webContents.send(IPC_EVENT_CHANNEL, frame);
    },
    log,
  });
  const disposeDesktopIpc = registerDesktopIpc({ ipc: ipcMain, api: settings, checkSender, log });
  appWindow.on('closed', () => {
    disposeIpc();
    disposeDesktopIpc();
  });
  appWindow.once('ready-to-show', () => appWindow.show());
  void appWindow.loadURL(APP_INDEX_URL);
  return appWindow;
}

function startApp(): void {
  const resources = appResources(app.isPackaged, process.resourcesPath);
  let appWindow: BrowserWindow | null = null;
  // The app's settings (the Python interpreter), in the user-data folder; the work is in main/app.
  const settings = createDesktopSettings({
    store: SettingsStore.open(app.getPath('userData'), { warn: log }),
    launchEnv: process.env,
    runsBusy: () => labHost.runs.busy,
    runsIdle: () => labHost.runs.whenIdle(),
    renewHost: () => labHost.supervisor.renew(),
    choose: async (current) => {
      const options: OpenDialogOptions = { properties: ['openFile', 'showHiddenFiles'], ...(current ? { defaultPath: current } : {}) };
      const chosen = await (appWindow ? dialog.showOpenDialog(appWindow, options) : dialog.showOpenDialog(options));
      return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
    },
    log,
  });
  const labHost = createLabHost({
    dataDir: app.getPath('userData'),
    supervisor: { launcher: utilityLauncher(utilityProcess, () => ({ ...resources.computeHostEnv, ...settings.computeHostEnv() })), log },
    warn: log,
    sourceRoots: resources.sourceRoots,
    pythonSource: () => settings.pythonSource(),
  });
  let labHostState: 'running' | 'stopping' | 'stopped' = 'running';

  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
  app.on('second-instance', () => {
    if (appWindow?.isMinimized()) appWindow.restore();
    appWindow?.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', (event) => {
    if (labHostState === 'stopped') return;
    event.preventDefault();
    if (labHostState === 'stopping') return;
    labHostState = 'stopping';
    void labHost.close().finally(() => {
      labHostState = 'stopped';
      app.quit();
    });
  });

  void app.whenReady().then(() => {
    const webRoot = rendererDir();
    if (!webRoot) {
      dialog.showErrorBox('GPU Lab', 'The app is not built (dist/web/index.html is missing): run `npm run build`.');
      app.quit();
      return;
    }
    protocol.handle(APP_SCHEME, appProtocolHandler(webRoot));
    appWindow = openWindow(labHost, settings);
  });
}

const cliArgs = installedCliArgs(process.argv);
if (cliArgs) startCli(cliArgs);
// A second window would start a second lab host over the same run store: it hands over to the first instead.
else if (app.requestSingleInstanceLock()) startApp();
else app.quit();
