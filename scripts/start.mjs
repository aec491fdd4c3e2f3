#!/usr/bin/env node
// npm start: the Electron app where Electron can start; otherwise one line saying why, then the lab host on the
// command line (`gpu-lab serve` once it exists, else the CPU bench and the command's help) so that the README's
// run command does something useful on every machine.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const cli = join(root, 'bin', 'gpu-lab.js');

function electronBinary() {
  try {
    // The electron package exports the path of its binary, which is downloaded on first launch.
    const path = require('electron');
    if (typeof path !== 'string' || !existsSync(path)) return { path: null, why: 'the Electron binary is not downloaded (no network for it here)' };
    if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY && process.platform === 'linux') return { path: null, why: 'there is no display' };
    if (!existsSync(join(root, 'dist', 'main', 'electron', 'main.js'))) return { path: null, why: 'the desktop shell is not built yet' };
    return { path, why: null };
  } catch {
    return { path: null, why: 'the electron package is not installed' };
  }
}

const electron = electronBinary();
if (electron.path) {
  const r = spawnSync(electron.path, [root], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
const hasServe = /^\s+serve\s/m.test(help.stdout);
console.log(`GPU Lab: Electron cannot start here (${electron.why}); ${hasServe ? 'starting `gpu-lab serve` instead' : 'running the lab host on the command line instead'}.`);
const args = hasServe ? ['serve', ...process.argv.slice(2)] : ['bench', '--device', 'cpu', ...process.argv.slice(2)];
const r = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' });
if (!hasServe) process.stdout.write(`\n${help.stdout}`);
process.exit(r.status ?? 1);
