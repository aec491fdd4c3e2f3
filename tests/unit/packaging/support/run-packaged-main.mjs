// Runs a packaged GPU Lab's main process under plain Node and uses it as the window would, through its IPC handlers,
// printing what it answered as JSON: the page app:// serves from inside the asar, the preload, every kernel source a
// lab names (read from the resources folder), the devices and the device report, the playground's exercises, a CPU lab
// run through the compute host (forked from the packaged tree, loading the packaged addon), and that run's PDF report
// (written to <user data folder>/report.pdf).
//
//   node --import ./record-modules.mjs run-packaged-main.mjs <resources folder> <user data folder>
//
// <resources folder> holds app.asar as Electron's fs shows it to main (a folder; run-packaged-view.mjs) beside the
// packaged app.asar.unpacked and the resources. `electron` resolves to electron-stand-in.mjs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
const result = {
  errors: recorded.errors,
  schemes: recorded.schemes,
  window: null,
  page: null,
  asset: null,
  kernels: [],
  devices: null,
  deviceReport: null,
  exercises: null,
  run: null,
  report: null,
  forks: null,
};
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
  result.deviceReport = await call('devices.inspectDevices');
  result.exercises = await call('playground.listExercises');

  // A CPU lab as the Run button starts it, small enough to take a moment, followed to its end as the history reads it.
  const started = await call('runs.startRun', { lab: 'vector-function', device: 'cpu', params: { elements: 1000, repeats: 1, warmup: 0 } });
  if (started.ok) {
    const { runId } = started.value;
    let record = await call('runs.getRun', runId);
    const runDeadline = Date.now() + 30_000;
    while (record.ok && ['queued', 'running'].includes(record.value.status) && Date.now() < runDeadline) {
      await new Promise((r) => setTimeout(r, 50));
      record = await call('runs.getRun', runId);
    }
    result.run = record.ok ? { ok: true, runId, status: record.value.status, lab: record.value.lab, labTitle: record.value.labTitle, points: record.value.points.length } : record;
    // The report as the history's "PDF report" asks for it, saved where the save dialog would put it.
    const report = await call('reports.writeReport', { runIds: [runId], author: 'Ana Pérez', course: 'GPU 2026' });
    if (report.ok) {
      const file = join(userData, report.value.filename);
      writeFileSync(file, Buffer.from(report.value.base64, 'base64'));
      result.report = { ok: true, file, filename: report.value.filename, pages: report.value.pages };
    } else result.report = report;
  } else result.run = started;
  result.forks = recorded.forks;
}
process.stdout.write(`${JSON.stringify(result)}\n`);
// As Electron would on quitting: main stops the lab host (and its compute host), then quits.
app.emit('will-quit', { preventDefault() {} });
const quitBy = Date.now() + 10_000;
while (!recorded.quit && Date.now() < quitBy) await new Promise((r) => setTimeout(r, 20));
process.exit(0);
