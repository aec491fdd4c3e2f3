// Runs a packaged GPU Lab's main process under plain Node, far enough to see what it resolves, and prints that as
// JSON: the page app:// serves from inside the asar, the preload, every kernel source a lab names (read through the
// IPC handler, from the resources folder), and the devices (through the compute host forked from the packaged
// tree, loading the packaged addon).
//
//   node run-packaged-main.mjs <resources folder> <user data folder>
//
// <resources folder> holds app.asar as a folder (the asar extracted, as Electron's fs shows it to main) beside the
// packaged app.asar.unpacked and the resources. `electron` resolves to electron-stand-in.mjs.
import { existsSync, readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const standIn = new URL('./electron-stand-in.mjs', import.meta.url).href;
registerHooks({
  resolve: (specifier, context, nextResolve) => (specifier === 'electron' ? { url: standIn, shortCircuit: true } : nextResolve(specifier, context)),
});

const [resourcesPath, userData] = process.argv.slice(2);
process.resourcesPath = resourcesPath;
process.env.GPU_LAB_STAND_IN_USER_DATA = userData;
const { app, recorded } = await import(standIn);

const appDir = join(resourcesPath, 'app.asar');
const { main } = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
await import(pathToFileURL(join(appDir, main)).href);

const deadline = Date.now() + 20_000;
while (recorded.windows.length === 0 && recorded.errors.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
const appWindow = recorded.windows[0];
const result = { errors: recorded.errors, schemes: recorded.schemes, window: null, page: null, asset: null, kernels: [], devices: null, forks: null };
if (appWindow) {
  const preload = appWindow.options.webPreferences.preload;
  result.window = { loadedUrl: appWindow.loadedUrl, preload, preloadExists: existsSync(preload) };
  const serve = recorded.protocolHandlers.get('app');
  const page = await serve(new Request('app://gpu-lab/index.html'));
  const html = await page.text();
  result.page = { status: page.status, type: page.headers.get('content-type'), csp: page.headers.get('content-security-policy'), html };
  const script = /src="\.?\/?([^"]+\.js)"/.exec(html)?.[1];
  if (script) {
    const asset = await serve(new Request(`app://gpu-lab/${script}`));
    result.asset = { path: script, status: asset.status, type: asset.headers.get('content-type') };
  }
  const sender = { senderFrame: appWindow.webContents.mainFrame };
  const call = (method, ...args) => recorded.ipcHandlers.get(`gpu-lab:${method}`)(sender, ...args);
  const labs = await call('labs.listLabs');
  const files = [...new Set((labs.ok ? labs.value : []).flatMap((lab) => lab.kernels.filter((k) => k.kind !== 'library').map((k) => k.file)))];
  for (const file of files) {
    const answer = await call('labs.kernelSource', file);
    result.kernels.push({ file, ok: answer.ok, text: answer.ok ? answer.value.text : null, error: answer.ok ? null : answer.error });
  }
  result.devices = await call('devices.listDevices');
  result.forks = recorded.forks;
}
process.stdout.write(`${JSON.stringify(result)}\n`);
// As Electron would on quitting: main stops the lab host (and its compute host), then quits.
app.emit('will-quit', { preventDefault() {} });
const quitBy = Date.now() + 10_000;
while (!recorded.quit && Date.now() < quitBy) await new Promise((r) => setTimeout(r, 20));
process.exit(0);
