#!/usr/bin/env node
// npm run package:dir — electron-builder's `dir` target (the unpacked app, no installer) for Linux, built with no
// network: the Electron zip it would download is replaced by a stand-in folder laid out as an unpacked Electron
// distribution, whose executable is a placeholder script that cannot start (see SECURITY.md and README, Packaging).
// Everything GPU Lab adds (app.asar, the unpacked addon, the kernels as resources, the fuses hook) is real, and
// tests/unit/packaging checks it. `npm run dist` builds the real installers where the network is there.
//
// With --installers, the AppImage and deb targets run too, each up to the tool electron-builder would download: the
// AppImage stops before appimagetool, and the deb is handed to a stand-in fpm that records the command it gets. What
// they would have made (the file names, the .desktop entries, and for the deb every argument of fpm: package name,
// maintainer, homepage, dependencies, the files and icons and where they install, the install scripts) is written to
// <output>/installer-plan.json, which tests/unit/packaging checks. No installer is written.
//
//   node scripts/package-dir.mjs [--output DIR] [--installers]     (default: out/, electron-builder.yml's directories.output)
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
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

// A stand-in for fpm, which electron-builder would download to build the deb (USE_SYSTEM_FPM=true makes it take the
// fpm on PATH): it writes down the command it was given, with the install scripts it names, and builds nothing.
function makeStandInFpm(dir, record) {
  const script = `#!${process.execPath}
const { readFileSync, writeFileSync } = require('node:fs');
const args = process.argv.slice(2);
const scripts = {};
for (const flag of ['--after-install', '--after-remove']) {
  const at = args.indexOf(flag);
  if (at >= 0) scripts[flag.slice(2)] = readFileSync(args[at + 1], 'utf8');
}
writeFileSync(${JSON.stringify(record)}, JSON.stringify({ args, scripts }));
`;
  writeFileSync(join(dir, 'fpm'), script);
  chmodSync(join(dir, 'fpm'), 0o755);
}

// What electron-builder would make of the AppImage and deb targets, stopped where each needs a download. The file
// names come from its artifactBuildStarted event; the .desktop entries from its hook for this (effectiveOptionComputed,
// which its own tests use), which stops the AppImage before appimagetool; the deb goes on to the stand-in fpm, which
// records the whole command (dependencies included, which the hook does not see).
function installerPlan(toolDir) {
  const plan = { artifacts: [], appImage: null, deb: null };
  const fpmRecord = join(toolDir, 'fpm-command.json');
  makeStandInFpm(toolDir, fpmRecord);
  return {
    plan,
    env: { USE_SYSTEM_FPM: 'true', PATH: `${toolDir}:${process.env.PATH ?? ''}` },
    artifactBuildStarted: (event) => plan.artifacts.push(basename(event.file)),
    effectiveOptionComputed: async (computed) => {
      if (Array.isArray(computed)) {
        plan.deb = { desktopEntry: readFileSync(computed[1], 'utf8') };
        return false;
      }
      plan.appImage = { desktopFileName: computed.desktopFileName, desktopEntry: computed.desktop };
      return true;
    },
    finish: () => {
      if (plan.deb && existsSync(fpmRecord)) Object.assign(plan.deb, JSON.parse(readFileSync(fpmRecord, 'utf8')));
      return plan;
    },
  };
}

// The unpacked app in <output>/linux-unpacked; with `installers`, the AppImage and deb targets as far as they go
// without a download, and what they would have made (installerPlan).
export async function packageDir(output, { installers = false } = {}) {
  checkBuilt();
  const { build, Platform, Arch } = await import('electron-builder');
  const standIn = makeStandInElectron(mkdtempSync(join(tmpdir(), 'gpu-lab-stand-in-electron-')), installedElectronVersion());
  const toolDir = mkdtempSync(join(tmpdir(), 'gpu-lab-stand-in-tools-'));
  const stops = installers ? installerPlan(toolDir) : null;
  const environment = { ...process.env };
  try {
    if (stops) Object.assign(process.env, stops.env);
    await build({
      projectDir: root,
      targets: Platform.LINUX.createTarget(installers ? ['AppImage', 'deb'] : 'dir', Arch.x64),
      publish: 'never',
      // Merged over electron-builder.yml.
      config: { electronDist: standIn, directories: { output }, ...(stops ? { artifactBuildStarted: stops.artifactBuildStarted } : {}) },
      ...(stops ? { effectiveOptionComputed: stops.effectiveOptionComputed } : {}),
    });
    return { appDir: join(output, 'linux-unpacked'), installers: stops ? stops.finish() : null };
  } finally {
    for (const name of Object.keys(stops?.env ?? {})) {
      if (environment[name] === undefined) delete process.env[name];
      else process.env[name] = environment[name];
    }
    rmSync(standIn, { recursive: true, force: true });
    rmSync(toolDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { output: { type: 'string' }, installers: { type: 'boolean', default: false } } });
  const output = resolve(values.output ?? join(root, 'out'));
  try {
    const { appDir, installers } = await packageDir(output, { installers: values.installers });
    if (installers) {
      const planFile = join(output, 'installer-plan.json');
      writeFileSync(planFile, `${JSON.stringify(installers, null, 2)}\n`);
      console.log(`What the AppImage and deb targets would make (${installers.artifacts.join(', ')}): ${planFile}`);
    }
    console.log(`GPU Lab packaged (dir target, stand-in Electron) in ${appDir}`);
  } catch (err) {
    console.error(`package:dir failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
