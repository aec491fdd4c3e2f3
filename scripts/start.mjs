#!/usr/bin/env node
// npm start: the Electron app where Electron can start; otherwise one line saying why, then the same app served to
// a browser (`gpu-lab serve`, which prints the link to open), so that the README's run command works on every
// machine. Arguments after `npm start --` go to gpu-lab serve (--port, --host, --data-dir, --open).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const cli = join(root, 'bin', 'gpu-lab.js');

// The electron package names its binary in path.txt once the binary is downloaded; requiring the package would try
// the download itself, which fails (and prints a stack) on a machine without network.
function electronBinary() {
  let dir;
  try {
    dir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { path: null, why: 'the electron package is not installed' };
  }
  const pathFile = join(dir, 'path.txt');
  const path = existsSync(pathFile) ? join(dir, 'dist', readFileSync(pathFile, 'utf8').trim()) : null;
  if (!path || !existsSync(path)) return { path: null, why: 'the Electron binary is not downloaded (it needs network once: `node node_modules/electron/install.js`)' };
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY && process.platform === 'linux') return { path: null, why: 'there is no display' };
  if (!existsSync(join(root, 'dist', 'main', 'electron', 'main.js'))) return { path: null, why: 'the desktop shell is not built yet (`npm run build`)' };
  return { path, why: null };
}

const electron = electronBinary();
if (electron.path) {
  const r = spawnSync(electron.path, [root], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
console.log(`GPU Lab: Electron cannot start here (${electron.why}); serving the app to a browser instead.`);
const r = spawnSync(process.execPath, [cli, 'serve', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
