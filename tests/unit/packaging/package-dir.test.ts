// `npm run package:dir -- --installers` (electron-builder against a stand-in Electron, with the AppImage and deb targets
// run up to the tool each would download) and what it makes: the addon outside the asar (a shared library must be a
// real file), the kernel sources as resources, the renderer and the compiled shell inside the asar with nothing of the
// sources or tests, exactly the production dependencies in its node_modules, the fuses flipped in the executable; the
// installers' file names, .desktop entries and the deb's fpm command. Then the packaged app used as installed: its
// main process run under plain Node with the asar shown as Electron's fs shows it, driven through its IPC handlers as
// the window drives it — the page app:// serves, the preload, every kernel source, the devices and the device report,
// the playground's exercises, a CPU lab run in the compute host forked from the packaged tree on the unpacked addon,
// and that run's PDF report — and its command line's --help; every module each process loads must come from inside
// the package, none from this checkout.
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { extractFile, listPackage, statFile } from '@electron/asar';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { labDescriptors } from '../../../main/labs/index.ts';
import { kernelFiles } from '../../../main/sources/kernel-sources.ts';
import { pdfInfo, pdfText, spaced } from '../reports/pdf-tools.ts';
import { productionPackages } from './support/production-tree.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const support = fileURLToPath(new URL('./support/', import.meta.url));
const ADDON = 'native/build/Release/gpu_lab.node';

interface Answer<T> {
  ok: boolean;
  value?: T;
  error?: unknown;
}

interface PackagedMainReport {
  errors: string[];
  window: { loadedUrl: string; preload: string; preloadExists: boolean } | null;
  page: { status: number; type: string; csp: string; html: string } | null;
  asset: { path: string; status: number; type: string } | null;
  kernels: { file: string; ok: boolean; text: string | null; error: unknown }[];
  devices: Answer<{ devices: { id: string }[] }> | null;
  deviceReport: Answer<{ list: { devices: { id: string }[] }; cuda: { available: boolean; reason: string | null; libraries: Record<string, unknown> } }> | null;
  exercises: Answer<{ id: string }[]> | null;
  run: { ok: boolean; runId?: string; status?: string; lab?: string; labTitle?: string; points?: number; error?: unknown } | null;
  report: { ok: boolean; file?: string; filename?: string; pages?: number; error?: unknown } | null;
  forks: { modulePath: string; addon: string | null }[] | null;
}

interface InstallerPlan {
  artifacts: string[];
  appImage: { desktopFileName: string; desktopEntry: string } | null;
  deb: { desktopEntry: string; args: string[]; scripts: Record<string, string> } | null;
}

const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  main: string;
  homepage: string;
  desktopName: string;
  devDependencies: Record<string, string>;
};

// Each build and its copies weigh some 200 MB: removed once read.
const scratch: string[] = [];
let output = '';
let appDir = '';
let resources = '';
let asarPath = '';
let inAsar = new Set<string>();
let plan: InstallerPlan = { artifacts: [], appImage: null, deb: null };

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
const scratchDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

// The resources folder as the packaged main sees it in Electron: app.asar readable as a folder, where a file packed
// into the archive reads from it and a file electron-builder unpacked is the one in app.asar.unpacked (here a link to
// it, as Electron's fs redirects there), and the rest of the resources as they are.
function packagedView(): string {
  const view = join(scratchDir('gpu-lab-packaged-view-'), 'resources');
  const asarView = join(view, 'app.asar');
  for (const path of inAsar) {
    const stat = statFile(asarPath, path) as { files?: unknown; unpacked?: boolean; link?: string };
    if (stat.files || stat.link) continue;
    mkdirSync(dirname(join(asarView, path)), { recursive: true });
    if (stat.unpacked) symlinkSync(join(resources, 'app.asar.unpacked', path), join(asarView, path));
    else writeFileSync(join(asarView, path), extractFile(asarPath, path));
  }
  for (const entry of readdirSync(resources)) if (entry !== 'app.asar') symlinkSync(join(resources, entry), join(view, entry));
  return view;
}

// A .desktop file's [Desktop Entry] keys.
function desktopEntry(text: string): Record<string, string> {
  expect(text.startsWith('[Desktop Entry]\n'), text).toBe(true);
  return Object.fromEntries(
    (text.split('\n[')[0] ?? '')
      .split('\n')
      .slice(1)
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

// The values of every `flag value` pair of a command line.
const flagValues = (args: readonly string[], flag: string): string[] => args.flatMap((arg, i) => (arg === flag && i + 1 < args.length ? [args[i + 1] ?? ''] : []));

beforeAll(async () => {
  output = scratchDir('gpu-lab-package-dir-');
  await run(process.execPath, [join(root, 'scripts', 'package-dir.mjs'), '--output', output, '--installers'], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  appDir = join(output, 'linux-unpacked');
  resources = join(appDir, 'resources');
  asarPath = join(resources, 'app.asar');
  inAsar = new Set(listPackage(asarPath, { isPack: false }).map((path) => path.replace(/^\//, '')));
  plan = JSON.parse(readFileSync(join(output, 'installer-plan.json'), 'utf8')) as InstallerPlan;
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

  it("ships the Python peers' package whole as a resource, the worker's modules and the tools beside them, not in the asar", () => {
    const pkg = 'python/gpu_lab_peers';
    const modules = filesUnder(join(root, pkg)).filter((file) => file.endsWith('.py'));
    expect(modules).toEqual(expect.arrayContaining(['__main__.py', 'protocol.py', 'device_lock.py', 'tools/__init__.py', 'tools/numpy_cpu.py']));
    for (const file of modules) {
      expect(sha(join(resources, pkg, file)), file).toBe(sha(join(root, pkg, file)));
      expect(inAsar.has(`${pkg}/${file}`), file).toBe(false);
    }
    // Nothing else: no bytecode a run here left behind.
    expect(filesUnder(join(resources, pkg)).sort()).toEqual(modules.sort());
  });

  it('holds the renderer build and the compiled shell, host and CLI in the asar, and none of the sources, maps or tests', () => {
    for (const file of filesUnder(join(root, 'dist', 'web'))) {
      const path = `dist/web/${file}`;
      expect(inAsar.has(path), path).toBe(true);
      expect(statFile(asarPath, path), path).not.toHaveProperty('unpacked', true);
    }
    for (const file of [packageJson.main, 'dist/main/electron/preload.cjs', 'dist/main/host/host-main.js', 'dist/main/cli/main.js', 'package.json']) expect(inAsar.has(file), file).toBe(true);
    const strays = [...inAsar].filter((path) => !path.startsWith('node_modules/') && /(\.map|\.ts|\.cc|\.cu)$|^(tests|scripts|renderer|main|shaders)\/|^dist\/main\/electron\/preload\.js$/.test(path));
    expect(strays).toEqual([]);
  });

  it('holds exactly the production dependencies (npm ls --omit=dev) in its node_modules, and every native module unpacked', async () => {
    const packed = new Set<string>();
    for (const path of inAsar) {
      if (!/^(node_modules\/(@[^/]+\/)?[^/]+\/)+package\.json$/.test(path)) continue;
      const { name, version } = JSON.parse(extractFile(asarPath, path).toString('utf8')) as { name: string; version: string };
      packed.add(`${name}@${version}`);
    }
    const production = await productionPackages(root);
    expect([...packed].sort()).toEqual([...production.packages].sort());
    for (const dev of Object.keys(packageJson.devDependencies)) expect([...packed].some((p) => p.startsWith(`${dev}@`)), dev).toBe(false);
    const nativeModules = [...inAsar].filter((path) => path.endsWith('.node'));
    expect(nativeModules).toContain(ADDON);
    for (const path of nativeModules) expect(statFile(asarPath, path), path).toMatchObject({ unpacked: true });
    // Dawn's Node bindings for this package's platform and architecture alone (electron-builder.yml, webgpu-files.test.ts).
    expect(nativeModules.filter((path) => path.startsWith('node_modules/webgpu/'))).toEqual([`node_modules/webgpu/dist/linux-${process.arch}/dawn.node`]);
  });

  it('has the fuses set in its executable', async () => {
    const wire = await getCurrentFuseWire(join(appDir, 'gpu-lab'));
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
  });
});

describe('the packaged app, used as installed', () => {
  let view = '';
  let moduleLog = '';
  // Where a module of the package may come from: the asar as main sees it, or the unpacked files (by their real path).
  let inside: string[] = [];

  // The modules a process loaded that came from neither the package nor this test's own harness.
  const loadedFromOutside = (): string[] => {
    const harness = realpathSync(support);
    return readFileSync(moduleLog, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => fileURLToPath(line.slice(line.indexOf(' ') + 1)))
      .filter((file) => !inside.some((dir) => file.startsWith(`${dir}/`)) && !file.startsWith(`${harness}/`));
  };
  const loadedPackages = (pid: number): Set<string> =>
    new Set(
      readFileSync(moduleLog, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith(`${pid} `))
        .flatMap((line) => [.../node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line)?.slice(1, 2) ?? []]),
    );
  const runDriver = async (driver: string, args: string[]): Promise<{ stdout: string; stderr: string }> =>
    run(process.execPath, ['--import', join(support, 'record-modules.mjs'), join(support, driver), ...args], {
      cwd: tmpdir(),
      maxBuffer: 16 * 1024 * 1024,
      timeout: 120_000,
      env: { ...process.env, GPU_LAB_MODULE_LOG: moduleLog, GPU_LAB_STAND_IN_CHILD_IMPORT: join(support, 'record-modules.mjs') },
    });

  beforeAll(() => {
    view = packagedView();
    inside = [realpathSync(join(view, 'app.asar')), realpathSync(join(resources, 'app.asar.unpacked'))];
    moduleLog = join(scratchDir('gpu-lab-module-log-'), 'modules.log');
    writeFileSync(moduleLog, '');
  });

  it('starts its main process and answers the window: the page, the preload, the kernels, the devices and their report, the exercises, a CPU lab and its PDF', async () => {
    const userData = scratchDir('gpu-lab-packaged-user-data-');
    const { stdout } = await runDriver('run-packaged-main.mjs', [view, userData]);
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
    // The device report: the devices with what the CUDA side found (or why there is none) and its libraries.
    expect(report.deviceReport, JSON.stringify(report.deviceReport?.error)).toMatchObject({ ok: true });
    expect(report.deviceReport?.value?.list.devices.map((d) => d.id)).toContain('cpu');
    expect(Object.keys(report.deviceReport?.value?.cuda.libraries ?? {}).sort()).toEqual(['cublas', 'nvml', 'nvrtc']);
    expect(report.exercises, JSON.stringify(report.exercises?.error)).toMatchObject({ ok: true });
    expect(report.exercises?.value?.map((e) => e.id)).toEqual(expect.arrayContaining(['saxpy', 'sgemm']));

    expect(report.run, JSON.stringify(report.run?.error)).toMatchObject({ ok: true, status: 'completed', lab: 'vector-function' });
    expect(report.run?.points).toBeGreaterThan(0);
    // The PDF: chart.js, @napi-rs/canvas, pdfkit and the DejaVu fonts, all from the asar.
    expect(report.report, JSON.stringify(report.report?.error)).toMatchObject({ ok: true });
    const pdf = report.report?.file ?? '';
    expect(readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(Number(pdfInfo(pdf).Pages)).toBe(report.report?.pages);
    const text = spaced(pdfText(pdf));
    expect(text).toContain(report.run?.labTitle ?? '');
    expect(text).toContain('Ana Pérez');

    expect(loadedFromOutside()).toEqual([]);
    const [mainPid] = readFileSync(moduleLog, 'utf8').split(' ', 1).map(Number);
    expect([...loadedPackages(mainPid ?? 0)]).toEqual(expect.arrayContaining(['chart.js', 'pdfkit', '@napi-rs/canvas', 'dejavu-fonts-ttf', 'zod', '@intlify/core-base']));
  });

  // As the installed gpu-lab command starts it (its compute host told where the package's resources are).
  it('runs a vector-function point on WebGPU (lavapipe here) with the dawn.node and the WGSL it carries, verified', async () => {
    const dataDir = scratchDir('gpu-lab-packaged-webgpu-');
    const json = join(dataDir, 'run.json');
    const { stdout } = await runDriver('run-installed-cli.mjs', [view, '--gpu-lab-cli', '--', 'run', 'vector-function', '--device', 'webgpu:0', '--peers', 'none', '--param', 'elements=100000', '--param', 'repeats=3', '--data-dir', dataDir, '--json', json, '--quiet']).catch((err: { stdout?: string; stderr?: string }) => {
      throw new Error(`the packaged CLI failed: ${err.stderr ?? ''}${err.stdout ?? ''}`);
    });
    const record = JSON.parse(readFileSync(json, 'utf8')) as { status: string; points: { device: string; status: string; verification: { passed: boolean; checked: number } | null }[] };
    expect(record.status, stdout).toBe('completed');
    const onWebgpu = record.points.filter((p) => p.device === 'webgpu:0');
    expect(onWebgpu.length).toBeGreaterThan(0);
    for (const point of onWebgpu) expect(point).toMatchObject({ status: 'ok', verification: { passed: true, checked: 100_000 } });
    // Dawn's bindings from the package's own unpacked node_modules, this platform's alone.
    const dawn = readFileSync(moduleLog, 'utf8').split('\n').filter((line) => line.includes('dawn.node'));
    expect(dawn.length, 'dawn.node was loaded').toBeGreaterThan(0);
    for (const line of dawn) expect(line).toContain(`app.asar.unpacked/node_modules/webgpu/dist/linux-${process.arch}`);
    expect(loadedFromOutside()).toEqual([]);
  });

  it('runs its command line from inside the asar', async () => {
    const { stdout } = await runDriver('run-packaged-cli.mjs', [view, '--help']);
    expect(stdout).toContain('gpu-lab');
    expect(stdout).toMatch(/\brun\b/);
    expect(loadedFromOutside()).toEqual([]);
  });
});

describe('the Linux installers, up to the tools they download', () => {
  const { name, version } = packageJson;
  const desktopName = packageJson.desktopName.replace(/\.desktop$/, '');

  it("are named after the package, without a space, as README's install section names them", () => {
    expect(plan.artifacts).toEqual([`${name}-${version}-x86_64.AppImage`, `${name}_${version}_amd64.deb`]);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const artifact of plan.artifacts) {
      expect(artifact).not.toMatch(/\s/);
      expect(readme, artifact).toContain(artifact);
    }
  });

  it('give the deb a maintainer with an e-mail address, the homepage, the dependencies Electron and the addon need, and OpenBLAS recommended', () => {
    const args = plan.deb?.args ?? [];
    expect(args.slice(0, 5)).toEqual(['-s', 'dir', '--force', '-t', 'deb']);
    expect(flagValues(args, '--name')).toEqual([name]);
    expect(flagValues(args, '--version')).toEqual([version]);
    expect(flagValues(args, '--maintainer')).toEqual([expect.stringMatching(/^[^<>]+ <[^@\s<>]+@[^@\s<>]+>$/)]);
    expect(flagValues(args, '--url')).toEqual([packageJson.homepage]);
    expect(flagValues(args, '--license')).toEqual(['MIT']);
    const depends = flagValues(args, '-d');
    // Electron's (GTK, NSS, X11…), what Chromium loads besides (GBM, ALSA), the addon's C++ runtime.
    expect(depends).toEqual(expect.arrayContaining(['libgtk-3-0', 'libnss3', 'libxss1', 'libxtst6', 'libgbm1', 'libasound2', 'libstdc++6']));
    expect(flagValues(args, '--deb-recommends')).toEqual(['libopenblas0-pthread']);
  });

  it("keep Chromium's sandbox in the deb: chrome-sandbox made setuid where user namespaces are off, and the AppArmor profile that allows them installed", () => {
    const afterInstall = plan.deb?.scripts['after-install'] ?? '';
    expect(afterInstall).toContain("chmod 4755 '/opt/GPU Lab/chrome-sandbox'");
    expect(afterInstall).toContain("APPARMOR_PROFILE_SOURCE='/opt/GPU Lab/resources/apparmor-profile'");
    expect(readFileSync(join(resources, 'apparmor-profile'), 'utf8')).toMatch(/userns,/);
    expect(plan.deb?.scripts['after-remove']).toContain('apparmor_parser --remove');
  });

  it('install the app under /opt, a menu entry and an icon of every size', () => {
    const files = new Map((plan.deb?.args ?? []).filter((a) => a.includes('=/')).map((a) => [a.slice(a.indexOf('=/') + 1), a.slice(0, a.indexOf('=/'))]));
    expect(files.get('/opt/GPU Lab')).toBe(`${appDir}/`);
    expect(files.has(`/usr/share/applications/${desktopName}.desktop`)).toBe(true);
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512]) {
      const icon = files.get(`/usr/share/icons/hicolor/${size}x${size}/apps/gpu-lab.png`);
      expect(icon, `${size} px`).toBe(join(root, 'build-resources', 'icons', `${size}x${size}.png`));
    }
  });

  it('write a menu entry that starts the app with its icon, in Education, tied to the window by desktopName', () => {
    const deb = desktopEntry(plan.deb?.desktopEntry ?? '');
    const appImage = desktopEntry(plan.appImage?.desktopEntry ?? '');
    for (const entry of [deb, appImage]) {
      expect(entry).toMatchObject({ Type: 'Application', Name: 'GPU Lab', Icon: 'gpu-lab', Terminal: 'false', Categories: 'Education;', StartupWMClass: desktopName });
      expect(entry.Comment).toBeTruthy();
      expect(entry.Keywords).toMatch(/^([^;]+;)+$/);
    }
    // As the freedesktop.org validator reads them (desktop-file-utils), warnings included.
    const dir = scratchDir('gpu-lab-desktop-entries-');
    for (const [file, text] of [['deb.desktop', plan.deb?.desktopEntry], ['appimage.desktop', plan.appImage?.desktopEntry]] as const) {
      writeFileSync(join(dir, file), text ?? '');
      const checked = spawnSync('desktop-file-validate', [join(dir, file)], { encoding: 'utf8' });
      expect(checked.error, 'desktop-file-validate could not run (install desktop-file-utils)').toBeUndefined();
      expect({ file, status: checked.status, said: checked.stdout + checked.stderr }).toEqual({ file, status: 0, said: '' });
    }
    expect(deb.Exec).toBe('"/opt/GPU Lab/gpu-lab" %U');
    // Chromium's sandbox stays on: AppRun drops it by itself only where the kernel cannot give it (SECURITY.md).
    expect(appImage.Exec).toBe('AppRun %U');
    expect(plan.appImage?.desktopFileName).toBe(packageJson.desktopName);
  });
});
