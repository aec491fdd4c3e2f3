#!/usr/bin/env node
// npm run package:dir — electron-builder's `dir` target (the unpacked app, no installer) for Linux, built with no
// network: the Electron zip it would download is replaced by a stand-in folder laid out as an unpacked Electron
// distribution, whose executable is a placeholder script that cannot start (see SECURITY.md and README, Packaging).
// Everything GPU Lab adds (app.asar, the unpacked addon, the kernels as resources, the fuses hook) is real, and
// tests/unit/packaging checks it. `npm run dist` builds the real installers where the network is there.
//
//   node scripts/package-dir.mjs [--output DIR]     (default: out/, electron-builder.yml's directories.output)
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// The fuse wire of Electron's binaries: a sentinel, the wire version, its length, then one byte per fuse ('0' off,
// '1' on) in @electron/fuses' order, with the defaults Electron documents for those fuses: run as Node, NODE_OPTIONS,
// inspect arguments, file:// privileges and WebAssembly trap handlers on; the rest off. The stand-in carries the
// same wire so that the afterPack hook flips it exactly as it would Electron's.
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
export const STAND_IN_DEFAULT_FUSES = '101100011';

// A folder laid out as electron-vX-linux-x64.zip unpacks, with a script in place of the 190 MB executable.
export function makeStandInElectron(dir, version) {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  const wire = Buffer.concat([
    Buffer.from(`#!/bin/sh\necho "This GPU Lab was packaged against a stand-in Electron (npm run package:dir); build it with npm run dist to run it." >&2\nexit 1\n# fuse wire: `),
    Buffer.from(FUSE_SENTINEL),
    Buffer.from([1, STAND_IN_DEFAULT_FUSES.length]),
    Buffer.from(STAND_IN_DEFAULT_FUSES),
    Buffer.from('\n'),
  ]);
  writeFileSync(join(dir, 'electron'), wire);
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'version'), `${version}\n`);
  writeFileSync(join(dir, 'LICENSE'), 'Stand-in for the Electron distribution (MIT); the real one ships its own LICENSE.\n');
  return dir;
}

function installedElectronVersion() {
  return JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
}

// What the packaged app is made of must exist before packaging: electron-builder would package a half-built app
// without a word.
function checkBuilt() {
  const needed = ['dist/main/electron/main.js', 'dist/main/electron/preload.cjs', 'dist/web/index.html', 'native/build/Release/gpu_lab.node'];
  const missing = needed.filter((file) => !existsSync(join(root, file)));
  if (missing.length > 0) {
    throw new Error(`Not built yet (${missing.join(', ')} missing): run \`npm run build\` first.`);
  }
}

export async function packageDir(output) {
  checkBuilt();
  const { build, Platform, Arch } = await import('electron-builder');
  const standIn = makeStandInElectron(mkdtempSync(join(tmpdir(), 'gpu-lab-stand-in-electron-')), installedElectronVersion());
  try {
    await build({
      projectDir: root,
      targets: Platform.LINUX.createTarget('dir', Arch.x64),
      publish: 'never',
      // Merged over electron-builder.yml.
      config: { electronDist: standIn, directories: { output } },
    });
  } finally {
    rmSync(standIn, { recursive: true, force: true });
  }
  return join(output, 'linux-unpacked');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { output: { type: 'string' } } });
  const output = resolve(values.output ?? join(root, 'out'));
  try {
    const appDir = await packageDir(output);
    console.log(`GPU Lab packaged (dir target, stand-in Electron) in ${appDir}`);
  } catch (err) {
    console.error(`package:dir failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
