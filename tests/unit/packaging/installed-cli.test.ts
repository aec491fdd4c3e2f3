// The installed app as the command line (README.md, "On a GPU server without a display"; ARCHITECTURE.md, "Processes"). `npm run
// package:dir` packages against the stand-in Electron, and the packaged main process runs under plain Node as the
// launcher on PATH starts the app's binary (support/run-installed-cli.mjs): from inside the asar, without a window, a
// single-instance lock or hardware acceleration, the command prints what `npx gpu-lab` prints, exits with its codes,
// reads the kernels from the resources, starts its compute host as a utility process on the unpacked addon, and
// serves the app. Then the deb's own scripts, run as dpkg runs them in a mount namespace: `gpu-lab` on PATH is the
// launcher in the resources, which starts the app's binary as the command; removing the package removes it.
// Not tested, as Electron cannot be downloaded here: that Electron's binary starts on the headless Ozone platform.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliDecompressSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openApiSocket } from '../serve/ws-client.ts';
import { packageApp, repoRoot } from './support/packaged-app.ts';
import type { PackagedApp } from './support/packaged-app.ts';

const driver = fileURLToPath(new URL('./support/run-installed-cli.mjs', import.meta.url));
const simulateInstall = fileURLToPath(new URL('./support/simulate-deb-install.sh', import.meta.url));
const bin = join(repoRoot, 'bin', 'gpu-lab.js');
const env = { ...process.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };
// What the launcher passes before `--` (build-resources/linux/gpu-lab), as root.
const SWITCHES = ['--gpu-lab-cli', '--ozone-platform=headless', '--no-sandbox'];

interface StandInReport {
  lockAsked: boolean;
  accelerationDisabled: boolean;
  windows: number;
  forks: { modulePath: string; addon: string | null }[];
  code: number;
}

const scratch: string[] = [];
const scratchDir = (name: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `gpu-lab-${name}-`));
  scratch.push(dir);
  return dir;
};

let app: PackagedApp;
beforeAll(async () => {
  app = await packageApp();
}, 300_000);
afterAll(() => {
  app?.remove();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

// The app's binary started by the launcher with `-- args`: its output, exit code and what the stand-in saw.
async function installedGpuLab(args: string[], switches = SWITCHES): Promise<{ code: number | null; stdout: string; stderr: string; report: StandInReport }> {
  const reportFile = join(scratchDir('stand-in-report'), 'report.json');
  const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [driver, app.view, ...switches, '--', ...args], { cwd: tmpdir(), env: { ...env, GPU_LAB_STAND_IN_REPORT: reportFile }, maxBuffer: 16 << 20, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
  });
  return { ...r, report: JSON.parse(readFileSync(reportFile, 'utf8')) as StandInReport };
}

describe('the installed app started as the command', () => {
  it('prints the help of `npx gpu-lab`, opening no window, taking no lock and leaving the GPU alone', async () => {
    const installed = await installedGpuLab(['--help']);
    const npx = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8', env });
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toBe(npx.stdout);
    expect(installed.stdout).toContain('serve');
    expect(installed.report).toMatchObject({ windows: 0, lockAsked: false, accelerationDisabled: true, forks: [], code: 0 });
  });

  it('gives the command what follows `--`, and nothing of what Chromium reads before it', async () => {
    const spanish = await installedGpuLab(['--lang', 'es', 'run', '--help']);
    expect(spanish.stdout).toMatch(/^Uso: gpu-lab run/);
    const chromiumLang = await installedGpuLab(['run', '--help'], [...SWITCHES, '--lang=es']);
    expect(chromiumLang.stdout).toMatch(/^Usage: gpu-lab run/);
  });

  it('exits with the command’s codes: 2 for bad usage, naming what was typed', async () => {
    const unknown = await installedGpuLab(['nonsense']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "nonsense"');
    expect(unknown.report.code).toBe(2);
  });

  it('lists the devices through a compute host started as a utility process from the asar, on the unpacked addon', async () => {
    const devices = await installedGpuLab(['devices', '--json']);
    expect(devices.code, devices.stderr).toBe(0);
    expect(JSON.parse(devices.stdout)).toMatchObject({ devices: expect.arrayContaining([expect.objectContaining({ id: 'cpu' })]) });
    expect(devices.report.forks).toEqual([{ modulePath: join(app.view, 'app.asar', 'dist', 'main', 'host', 'host-main.js'), addon: join(app.view, 'app.asar.unpacked', 'native', 'build', 'Release', 'gpu_lab.node') }]);
  });

  it('reads the playground’s kernels from the installed resources', async () => {
    const starter = await installedGpuLab(['kernel', 'show', 'saxpy', '--kernel', 'starter']);
    expect(starter.code, starter.stderr).toBe(0);
    expect(starter.stdout).toBe(readFileSync(join(app.resources, 'shaders', 'playground', 'saxpy.starter.cu'), 'utf8'));
  });

  it('runs a lab and stores its record', async () => {
    const dataDir = scratchDir('installed-run');
    const run = await installedGpuLab(['run', 'timing-pitfalls', '--device', 'cpu', '--param', 'n=64', '--data-dir', dataDir, '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    const [record] = readdirSync(join(dataDir, 'runs'));
    expect(JSON.parse(readFileSync(join(dataDir, 'runs', record ?? ''), 'utf8'))).toMatchObject({ lab: 'timing-pitfalls', status: 'completed' });
    expect(run.report.forks).toHaveLength(1);
  });

  it('serves the app from inside the asar, compressed, with the API on its compute host, until Ctrl-C', async () => {
    const child = spawn(process.execPath, [driver, app.view, ...SWITCHES, '--', 'serve', '--port', '0', '--data-dir', scratchDir('installed-serve')], { cwd: tmpdir(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.resume();
    const link = await new Promise<URL>((resolve, reject) => {
      child.stdout.on('data', () => {
        const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(stdout)?.[0];
        if (url) resolve(new URL(url));
      });
      void exit.then((code) => reject(new Error(`serve exited with ${String(code)} before printing its link: ${stdout}`)));
    });
    const token = link.searchParams.get('token') ?? '';
    const page = await new Promise<{ status: number; encoding: unknown; body: Buffer }>((resolve, reject) => {
      const cookie = `gpulab_token_${link.port}=${token}`;
      request({ host: '127.0.0.1', port: link.port, path: '/', headers: { host: link.host, cookie, 'accept-encoding': 'br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    expect(page.status).toBe(200);
    expect(page.encoding).toBe('br');
    expect(brotliDecompressSync(page.body).toString()).toBe(readFileSync(join(app.view, 'app.asar', 'dist', 'web', 'index.html'), 'utf8'));
    const client = await openApiSocket(Number(link.port), token);
    client.ws.send(JSON.stringify({ id: 1, method: 'devices.listDevices', args: [] }));
    expect(await client.next()).toMatchObject({ id: 1, ok: true, value: { devices: expect.arrayContaining([expect.objectContaining({ id: 'cpu' })]) } });
    client.ws.close();
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });
});

// electron-builder's own filling of its script templates (app-builder-lib, FpmTarget's writeConfigFile): each
// ${name} from the options, and a name it does not know is an error that stops the build.
function fillTemplate(text: string, values: Record<string, string>): string {
  return text.replace(/\${([a-zA-Z]+)}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Macro ${name} is not defined`);
    return value;
  });
}

// js-yaml as electron-builder itself loads its config: from its core, app-builder-lib, whose dependency it is.
const require = createRequire(import.meta.url);
const fromBuilderLib = createRequire(createRequire(require.resolve('electron-builder')).resolve('app-builder-lib/package.json'));
const yaml = fromBuilderLib('js-yaml') as { load(text: string): unknown };
const config = yaml.load(readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8')) as {
  productName: string;
  linux: { executableName: string };
  deb: { afterInstall: string; afterRemove: string };
  extraResources: { from: string; to: string }[];
};

// Root, and mount namespaces with overlays: what dpkg's scripts need without touching this machine's /usr/bin.
const canSimulate = process.getuid?.() === 0 && spawnSync('unshare', ['--mount', 'true']).status === 0;

describe("the deb's scripts, run as dpkg runs them", () => {
  it('ships the launcher that the scripts link, executable, in the resources', () => {
    expect(config.extraResources).toContainEqual({ from: 'build-resources/linux/gpu-lab', to: 'bin/gpu-lab' });
    const shipped = join(app.resources, 'bin', 'gpu-lab');
    expect(readFileSync(shipped, 'utf8')).toBe(readFileSync(join(repoRoot, 'build-resources', 'linux', 'gpu-lab'), 'utf8'));
    expect(spawnSync('test', ['-x', shipped]).status).toBe(0);
  });

  it.skipIf(!canSimulate)('puts `gpu-lab` on PATH as the launcher, which runs the app as the command; removing the package takes it away', async () => {
    const work = scratchDir('deb-install');
    const values = { executable: config.linux.executableName, sanitizedProductName: config.productName };
    const script = (file: string, name: string): string => {
      const path = join(work, name);
      writeFileSync(path, fillTemplate(readFileSync(join(repoRoot, file), 'utf8'), values));
      return path;
    };
    const out = join(work, 'out');
    mkdirSync(out);
    // The app's binary as the stand-in: what the launcher passed it, then the packaged main under plain Node.
    const fake = join(work, 'fake-binary');
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > '${out}/argv'\nexec '${process.execPath}' '${driver}' '${app.view}' "$@"\n`);
    chmodSync(fake, 0o755);
    const installedBefore = ['/opt/GPU Lab', '/usr/bin/gpu-lab'].map((path) => existsSync(path));
    const r = await promisify(execFile)('unshare', ['--mount', '--propagation', 'private', 'bash', simulateInstall, app.appDir, script(config.deb.afterInstall, 'after-install'), script(config.deb.afterRemove, 'after-remove'), fake, out, 'devices', '--json'], { env, timeout: 120_000 });
    const read = (name: string): string => readFileSync(join(out, name), 'utf8').trim();
    expect(read('which'), r.stderr).toBe('/usr/bin/gpu-lab');
    expect(read('resolves')).toBe('/opt/GPU Lab/resources/bin/gpu-lab');
    expect(read('argv').split('\n')).toEqual([...SWITCHES, '--', 'devices', '--json']);
    expect(read('exit')).toBe('0');
    expect(JSON.parse(read('stdout'))).toMatchObject({ devices: expect.arrayContaining([expect.objectContaining({ id: 'cpu' })]) });
    expect(read('left')).toBe('nothing');
    // Nothing of it outside the namespace.
    expect(['/opt/GPU Lab', '/usr/bin/gpu-lab'].map((path) => existsSync(path))).toEqual(installedBefore);
  });
});
