// What the packaged main process gets for `import ... from 'electron'` when it runs under plain Node
// (run-packaged-main.mjs): an app that is packaged and ready at once, a window, ipcMain and protocol that keep what
// main registers, and utilityProcess.fork as child_process.fork, so that the compute host really starts from the
// packaged tree and loads the packaged addon. Nothing here decides what main resolves; it only lets main run.
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';

export const recorded = { schemes: [], protocolHandlers: new Map(), windows: [], ipcHandlers: new Map(), forks: [], errors: [] };

export const app = Object.assign(new EventEmitter(), {
  isPackaged: true,
  enableSandbox() {},
  requestSingleInstanceLock: () => true,
  getPath: () => process.env.GPU_LAB_STAND_IN_USER_DATA,
  whenReady: () => Promise.resolve(),
  quit() {
    recorded.quit = true;
  },
});

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.loadedUrl = null;
    this.webContents = { mainFrame: { url: 'app://gpu-lab/index.html', processId: 1, routingId: 1 }, send() {} };
    recorded.windows.push(this);
  }
  isDestroyed() {
    return false;
  }
  isMinimized() {
    return false;
  }
  show() {}
  focus() {}
  async loadURL(url) {
    this.loadedUrl = url;
  }
}

export const ipcMain = {
  handle: (channel, handler) => recorded.ipcHandlers.set(channel, handler),
  removeHandler: (channel) => recorded.ipcHandlers.delete(channel),
};

export const protocol = {
  registerSchemesAsPrivileged: (schemes) => recorded.schemes.push(...schemes),
  handle: (scheme, handler) => recorded.protocolHandlers.set(scheme, handler),
};

export const dialog = {
  showErrorBox: (_title, message) => recorded.errors.push(message),
};

// Electron's UtilityProcess over a forked child: 'exit' with a code, messages passed as they come.
export const utilityProcess = {
  fork(modulePath, args, options) {
    recorded.forks.push({ modulePath, addon: options?.env?.GPU_LAB_ADDON ?? null });
    // The packaged host starts as Electron would start it, with nothing of the test's Node options, but for the
    // recorder of the modules it loads where the test asks for one (run-packaged-main.mjs).
    const execArgv = process.env.GPU_LAB_STAND_IN_CHILD_IMPORT ? ['--import', process.env.GPU_LAB_STAND_IN_CHILD_IMPORT] : [];
    const child = fork(modulePath, args ?? [], { env: options?.env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'json', execArgv });
    const host = Object.assign(new EventEmitter(), {
      pid: child.pid,
      stdout: child.stdout,
      stderr: child.stderr,
      postMessage: (message) => child.send(message),
      kill: () => child.kill('SIGKILL'),
    });
    child.on('message', (message) => host.emit('message', message));
    child.on('exit', (code) => host.emit('exit', code ?? 1));
    return host;
  },
};

export default { app, BrowserWindow, ipcMain, protocol, dialog, utilityProcess };
