// `npm run package:dir` (electron-builder's dir target against a stand-in Electron) and the tree it makes: the addon
// outside the asar (a shared library must be a real file), the kernel sources as resources, the renderer and the
// compiled shell inside the asar with nothing of the sources or tests, the fuses flipped in the executable; and the
// packaged main process itself, run under plain Node with the asar extracted as Electron's fs would show it,
// resolving each of them: app:// serves the page from the asar, the preload is found, every kernel source a lab
// names is read from the resources, and the compute host starts from the packaged tree on the unpacked addon.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { extractAll, listPackage, statFile } from '@electron/asar';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { labDescriptors } from '../../../main/labs/index.ts';
import { kernelFiles } from '../../../main/sources/kernel-sources.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const ADDON = 'native/build/Release/gpu_lab.node';

interface PackagedMainReport {
  errors: string[];
  window: { loadedUrl: string; preload: string; preloadExists: boolean } | null;
  page: { status: number; type: string; csp: string; html: string } | null;
  asset: { path: string; status: number; type: string } | null;
  kernels: { file: string; ok: boolean; text: string | null; error: unknown }[];
  devices: { ok: boolean; value?: { devices: { id: string }[] }; error?: unknown } | null;
  forks: { modulePath: string; addon: string | null }[] | null;
}

// Each build and its extracted copy weigh some 150 MB: removed once read.
const scratch: string[] = [];
let appDir = '';
let resources = '';
let asarPath = '';
let inAsar = new Set<string>();

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

beforeAll(async () => {
  const output = mkdtempSync(join(tmpdir(), 'gpu-lab-package-dir-'));
  scratch.push(output);
  await run(process.execPath, [join(root, 'scripts', 'package-dir.mjs'), '--output', output], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  appDir = join(output, 'linux-unpacked');
  resources = join(appDir, 'resources');
  asarPath = join(resources, 'app.asar');
  inAsar = new Set(listPackage(asarPath, { isPack: false }).map((path) => path.replace(/^\//, '')));
}, 300_000);
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the packaged app (dir target)', () => {
  it('holds the addon outside the asar, the same bytes as the one built, with its build notes', () => {
    expect(inAsar.has(ADDON)).toBe(true);
    expect(statFile(asarPath, ADDON)).toMatchObject({ unpacked: true });
    const unpacked = join(resources, 'app.asar.unpacked', ADDON);
    expect(sha(unpacked)).toBe(sha(join(root, ADDON)));
    expect(existsSync(join(resources, 'app.asar.unpacked', 'native', 'build', 'build-info.json'))).toBe(true);
  });

  it('ships every kernel source a lab shows as a resource, not in the asar', () => {
    for (const file of kernelFiles(labDescriptors())) {
      expect(sha(join(resources, file)), file).toBe(sha(join(root, file)));
      expect(inAsar.has(file), file).toBe(false);
    }
  });

  it('holds the renderer build and the compiled shell in the asar, and none of the sources, maps or tests', () => {
    for (const file of filesUnder(join(root, 'dist', 'web'))) {
      const path = `dist/web/${file}`;
      expect(inAsar.has(path), path).toBe(true);
      expect(statFile(asarPath, path), path).not.toHaveProperty('unpacked', true);
    }
    const { main } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string };
    for (const file of [main, 'dist/main/electron/preload.cjs', 'dist/main/host/host-main.js', 'package.json']) expect(inAsar.has(file), file).toBe(true);
    const strays = [...inAsar].filter((path) => !path.startsWith('node_modules/') && /(\.map|\.ts|\.cc|\.cu)$|^(tests|scripts|renderer|main|shaders)\/|^dist\/main\/electron\/preload\.js$/.test(path));
    expect(strays).toEqual([]);
  });

  it('has the fuses set in its executable', async () => {
    const wire = await getCurrentFuseWire(join(appDir, 'gpu-lab'));
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
  });

  it('starts its main process far enough to resolve the renderer, the preload, the kernels and the addon', async () => {
    // The resources folder as the packaged main sees it in Electron: app.asar readable as a folder, the rest as is.
    const viewRoot = mkdtempSync(join(tmpdir(), 'gpu-lab-packaged-view-'));
    scratch.push(viewRoot);
    const view = join(viewRoot, 'resources');
    mkdirSync(view);
    extractAll(asarPath, join(view, 'app.asar'));
    for (const entry of readdirSync(resources)) if (entry !== 'app.asar') symlinkSync(join(resources, entry), join(view, entry));
    const userData = mkdtempSync(join(tmpdir(), 'gpu-lab-packaged-user-data-'));
    const driver = fileURLToPath(new URL('./support/run-packaged-main.mjs', import.meta.url));
    const { stdout } = await run(process.execPath, [driver, view, userData], { cwd: tmpdir(), maxBuffer: 16 * 1024 * 1024, timeout: 60_000 });
    const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as PackagedMainReport;

    expect(report.errors).toEqual([]);
    expect(report.window).toEqual({ loadedUrl: 'app://gpu-lab/index.html', preload: join(view, 'app.asar', 'dist', 'main', 'electron', 'preload.cjs'), preloadExists: true });
    expect(report.page).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', html: expect.stringContaining('<div id="app">') });
    expect(report.page?.csp).toContain("script-src 'self'");
    expect(report.asset).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8' });

    const expected = kernelFiles(labDescriptors());
    expect(report.kernels.map((k) => k.file).sort()).toEqual(expected);
    for (const kernel of report.kernels) expect(kernel.text, kernel.file).toBe(readFileSync(join(resources, kernel.file), 'utf8'));

    expect(report.forks).toEqual([{ modulePath: join(view, 'app.asar', 'dist', 'main', 'host', 'host-main.js'), addon: join(view, 'app.asar.unpacked', ADDON) }]);
    expect(report.devices).toMatchObject({ ok: true, value: { devices: expect.arrayContaining([expect.objectContaining({ id: 'cpu' })]) } });
  });
});
