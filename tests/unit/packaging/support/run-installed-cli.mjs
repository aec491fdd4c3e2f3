// Runs a packaged GPU Lab's main process under plain Node the way the launcher on PATH starts the app's binary for
// the command line (build-resources/linux/gpu-lab), and ends as the app ends: with the command's output on stdout and
// stderr and its exit code. Electron is electron-stand-in.mjs, with what it lacks for this: app.exit, and
// disableHardwareAcceleration and the single-instance lock, whose calls are written down.
//
//   node run-installed-cli.mjs <resources folder> --gpu-lab-cli [Chromium switches] -- <the command's arguments>
//
// <resources folder> holds app.asar as a folder (as Electron's fs shows it to main) beside app.asar.unpacked and the
// resources. Where GPU_LAB_STAND_IN_REPORT names a file, what the stand-in saw is written there as JSON on exit: the
// windows opened, whether the lock was asked for and acceleration turned off, the utility processes forked.
import { readFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const standIn = new URL('./electron-stand-in.mjs', import.meta.url).href;
registerHooks({
  resolve: (specifier, context, nextResolve) => (specifier === 'electron' ? { url: standIn, shortCircuit: true } : nextResolve(specifier, context)),
});

const [resourcesPath] = process.argv.slice(2);
process.resourcesPath = resourcesPath;
const { app, recorded } = await import(standIn);

const seen = { lockAsked: false, accelerationDisabled: false };
const lock = app.requestSingleInstanceLock;
Object.assign(app, {
  requestSingleInstanceLock() {
    seen.lockAsked = true;
    return lock();
  },
  disableHardwareAcceleration() {
    seen.accelerationDisabled = true;
  },
  exit(code) {
    const report = process.env.GPU_LAB_STAND_IN_REPORT;
    if (report) writeFileSync(report, JSON.stringify({ ...seen, windows: recorded.windows.length, forks: recorded.forks, code }));
    process.exit(code);
  },
});

const appDir = join(resourcesPath, 'app.asar');
const { main } = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
await import(pathToFileURL(join(appDir, main)).href);
