// The desktop app's Python setting as main serves it: which interpreter wins (GPU_LAB_PYTHON as the app was started,
// else the setting, else python3) and what the compute host is told; a change checked, refused during a run, saved,
// and renewing the compute host only where the interpreter changes. Then over a real lab host and compute host: the
// next probe after a change asks a fresh host, started with the new interpreter; a change during a run is refused.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import { createDesktopSettings, pythonChoice, pythonHostEnv } from '../../../main/app/desktop-settings.ts';
import type { DesktopSettingsOptions } from '../../../main/app/desktop-settings.ts';
import { createLabHost } from '../../../main/app/lab-host.ts';
import { SETTINGS_FILE, SettingsStore } from '../../../main/app/settings-store.ts';
import { PYTHON_ENV } from '../../../main/common/peer-protocol.ts';
import { forkLauncher } from '../../../main/engine/launcher.ts';

const made: string[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-desktop-settings-'));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

// An interpreter that exits at once: the worker never says it is ready, and the probe names it.
function stubPython(name = 'python3'): string {
  const path = join(folder(), name);
  writeFileSync(path, '#!/bin/sh\necho "stub interpreter" >&2\nexit 3\n');
  chmodSync(path, 0o755);
  return path;
}

describe('which interpreter wins', () => {
  const set = '/home/ana/venv/bin/python3';
  it.each([
    ['nothing named', null, {}, { interpreter: 'python3', source: 'default', environment: null }, {}],
    ['the setting', set, {}, { interpreter: set, source: 'settings', environment: null }, { [PYTHON_ENV]: set }],
    ['GPU_LAB_PYTHON over the setting', set, { [PYTHON_ENV]: '/usr/bin/python3.12' }, { interpreter: '/usr/bin/python3.12', source: 'environment', environment: '/usr/bin/python3.12' }, {}],
    ['GPU_LAB_PYTHON alone', null, { [PYTHON_ENV]: 'python3.12' }, { interpreter: 'python3.12', source: 'environment' }, {}],
    ['the setting over an empty GPU_LAB_PYTHON', set, { [PYTHON_ENV]: '' }, { interpreter: set, source: 'settings', environment: null }, { [PYTHON_ENV]: set }],
  ])('%s', (_, setting, env, choice, hostEnv) => {
    expect(pythonChoice(setting, env)).toMatchObject({ setting, ...choice });
    expect(pythonHostEnv(setting, env)).toEqual(hostEnv);
  });

  it('says when the setting would no longer start (the file is gone)', () => {
    expect(pythonChoice('/no/such/venv/bin/python', {}).problem).toMatchObject({ reason: 'missing', message: expect.stringContaining('there is no file there') });
    expect(pythonChoice(stubPython(), {}).problem).toBeNull();
  });
});

function settings(change: Partial<DesktopSettingsOptions> = {}) {
  const dir = folder();
  const renewHost = vi.fn();
  const options: DesktopSettingsOptions = {
    store: SettingsStore.open(dir, { warn: () => undefined }),
    launchEnv: {},
    runsBusy: () => false,
    runsIdle: async () => undefined,
    renewHost,
    choose: async () => null,
    ...change,
  };
  const written = (): unknown => JSON.parse(readFileSync(join(dir, SETTINGS_FILE), 'utf8'));
  return { desktop: createDesktopSettings(options), renewHost, dir, written };
}

describe('changing the setting', () => {
  it('saves a good path, tells the next compute host, and renews the running one once', async () => {
    const { desktop, renewHost, written } = settings();
    const python = stubPython();
    expect(await desktop.setPython(python)).toMatchObject({ interpreter: python, source: 'settings', setting: python, problem: null });
    expect(written()).toEqual({ python });
    expect(desktop.computeHostEnv()).toEqual({ [PYTHON_ENV]: python });
    expect(desktop.pythonSource()).toBe('settings');
    expect(renewHost).toHaveBeenCalledTimes(1);
    // The same again changes nothing the host uses.
    await desktop.setPython(python);
    expect(renewHost).toHaveBeenCalledTimes(1);
    expect(await desktop.resetPython()).toMatchObject({ interpreter: 'python3', source: 'default', setting: null });
    expect(desktop.computeHostEnv()).toEqual({});
    expect(renewHost).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['a relative path', 'venv/bin/python', 'relative'],
    ['a folder', '/usr', 'folder'],
    ['a number, as IPC may carry', 42, 'not-a-path'],
  ])('refuses %s, naming the setting, and keeps the old one', async (_, value, reason) => {
    const { desktop, renewHost, dir } = settings();
    await expect(desktop.setPython(value as string)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'python', reason } });
    expect(await desktop.pythonSetting()).toMatchObject({ source: 'default', setting: null });
    expect(renewHost).not.toHaveBeenCalled();
    expect(() => readFileSync(join(dir, SETTINGS_FILE))).toThrow(/ENOENT/);
  });

  it('refuses a change of the interpreter while a run is in progress, saving nothing', async () => {
    let busy = true;
    const { desktop, renewHost, written } = settings({ runsBusy: () => busy });
    const python = stubPython();
    await expect(desktop.setPython(python)).rejects.toMatchObject({ code: 'DEVICE_BUSY', details: { field: 'python', reason: 'run-in-progress' } });
    busy = false;
    await desktop.setPython(python);
    busy = true;
    await expect(desktop.resetPython()).rejects.toMatchObject({ code: 'DEVICE_BUSY' });
    await expect(desktop.setPython(stubPython('python3.12'))).rejects.toMatchObject({ code: 'DEVICE_BUSY' });
    expect(written()).toEqual({ python });
    expect(renewHost).toHaveBeenCalledTimes(1);
    // The same interpreter again changes nothing a run uses.
    expect(await desktop.setPython(python)).toMatchObject({ interpreter: python });
  });

  it('takes a change during a run where GPU_LAB_PYTHON wins: the interpreter in use stays the same', async () => {
    const { desktop, renewHost, written } = settings({ runsBusy: () => true, launchEnv: { [PYTHON_ENV]: '/usr/bin/python3.12' } });
    const python = stubPython();
    expect(await desktop.setPython(python)).toMatchObject({ interpreter: '/usr/bin/python3.12', setting: python });
    expect(written()).toEqual({ python });
    expect(renewHost).not.toHaveBeenCalled();
  });

  it('renews the host only after a run begun while the file was written has ended', async () => {
    let busy = false;
    let idle: () => void = () => undefined;
    const { desktop, renewHost } = settings({ runsBusy: () => busy, runsIdle: () => new Promise<void>((resolve) => (idle = resolve)) });
    const python = stubPython();
    const saving = desktop.setPython(python);
    busy = true;
    await saving;
    expect(renewHost).not.toHaveBeenCalled();
    idle();
    await vi.waitFor(() => expect(renewHost).toHaveBeenCalledTimes(1));
  });

  it('a setting and its reset made at once leave the host on the default, renewed for each change it saw', async () => {
    const { desktop, renewHost } = settings();
    const python = stubPython();
    const [set, reset] = await Promise.all([desktop.setPython(python), desktop.resetPython()]);
    expect(set.interpreter).toBe(python);
    expect(reset).toMatchObject({ setting: null });
    // The first change moved the host to the new interpreter, the second back: the host in use is the file's.
    expect(renewHost).toHaveBeenCalledTimes(2);
    expect(desktop.computeHostEnv()).toEqual({});
  });

  it('keeps the setting while GPU_LAB_PYTHON wins, and renews nothing', async () => {
    const { desktop, renewHost, written } = settings({ launchEnv: { [PYTHON_ENV]: '/usr/bin/python3.12' } });
    const python = stubPython();
    expect(await desktop.setPython(python)).toMatchObject({ interpreter: '/usr/bin/python3.12', source: 'environment', setting: python });
    expect(written()).toEqual({ python });
    expect(desktop.computeHostEnv()).toEqual({});
    expect(renewHost).not.toHaveBeenCalled();
  });

  it('sets what the dialog chose, starting it at the current setting; a cancelled dialog changes nothing', async () => {
    const python = stubPython();
    const choose = vi.fn<(current: string | null) => Promise<string | null>>().mockResolvedValueOnce(null).mockResolvedValueOnce(python).mockResolvedValueOnce('relative/python');
    const { desktop, renewHost } = settings({ choose });
    expect(await desktop.choosePython()).toBeNull();
    expect(renewHost).not.toHaveBeenCalled();
    expect(await desktop.choosePython()).toMatchObject({ interpreter: python, source: 'settings' });
    expect(choose).toHaveBeenLastCalledWith(null);
    await expect(desktop.choosePython()).rejects.toMatchObject({ details: { reason: 'relative' } });
    expect(choose).toHaveBeenLastCalledWith(python);
  });
});

describe('over a real lab host', () => {
  const launchPython = process.env[PYTHON_ENV];
  delete process.env[PYTHON_ENV];
  const dir = folder();
  let desktopRef: ReturnType<typeof createDesktopSettings> | null = null;
  const logs: string[] = [];
  const lab = createLabHost({
    dataDir: dir,
    supervisor: { launcher: { launch: (env: Record<string, string>) => forkLauncher.launch({ ...env, ...(desktopRef?.computeHostEnv() ?? {}) }) }, log: (l: string) => logs.push(l) },
    warn: (l) => logs.push(l),
    pythonSource: () => desktopRef?.pythonSource() ?? 'default',
  });
  const desktop = createDesktopSettings({
    store: SettingsStore.open(dir, { warn: (l) => logs.push(l) }),
    launchEnv: {},
    runsBusy: () => lab.runs.busy,
    runsIdle: () => lab.runs.whenIdle(),
    renewHost: () => lab.supervisor.renew(),
    choose: async () => null,
  });
  desktopRef = desktop;
  afterAll(async () => {
    await lab.dispose();
    if (launchPython !== undefined) process.env[PYTHON_ENV] = launchPython;
  });

  it('asks a fresh compute host, started with the new interpreter, after each change', async () => {
    const first = stubPython('python-a');
    const second = stubPython('python-b');
    await desktop.setPython(first);
    const a = await lab.devices.inspectPython();
    expect(a).toMatchObject({ interpreter: first, available: false, source: 'settings' });
    if (a.available) throw new Error('the stub cannot be available');
    expect(a.reason).toContain('stub interpreter');
    const pidA = lab.supervisor.pid;

    await desktop.setPython(second);
    expect(await lab.devices.inspectPython()).toMatchObject({ interpreter: second, source: 'settings' });
    expect(lab.supervisor.pid).not.toBe(pidA);
    // The renewed host was stopped, not left running.
    await vi.waitFor(() => expect(logs.some((l) => l.includes(`pid ${pidA}] stopped`))).toBe(true));
  });

  it('refuses a change while a run is in progress, and takes it once the run has ended', async () => {
    const { runId } = await lab.runs.startRun({ lab: 'vector-function', device: 'cpu', params: { elements: 10_000, repeats: 3 }, peers: [] });
    expect(lab.runs.busy).toBe(true);
    await expect(desktop.resetPython()).rejects.toMatchObject({ code: 'DEVICE_BUSY' });
    await lab.runs.whenIdle();
    expect((await lab.runs.getRun(runId)).status).toBe('completed');
    expect(lab.runs.busy).toBe(false);
    expect(await desktop.resetPython()).toMatchObject({ source: 'default' });
  });
});
