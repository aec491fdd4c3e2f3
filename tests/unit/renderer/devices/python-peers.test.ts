// The devices page's Python panel: what gpu-lab peers says, as the GPU machine said it (every library found, torch
// and CuPy seeing the H100) and as a machine without them says it (each library missing with its reason, or no
// interpreter at all), in English and Spanish.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { enableAutoUnmount, flushPromises } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { PEERS_REPORT } from '../../../../main/common/peer-protocol.ts';
import type { PythonSetting } from '../../../../main/common/desktop-api.ts';
import { ApiError } from '../../../../renderer/api/api-error.ts';
import { desktopApi, devicesApi, shell } from './fake-api.ts';
import { loadReport, mountDevicesView } from './fixtures.ts';
import { i18n } from '../../../../renderer/i18n/index.ts';

vi.mock('../../../../renderer/api/index.ts', async () => (await import('./fake-api.ts')).apiModule());
enableAutoUnmount(afterEach);

const h100 = PEERS_REPORT.parse(JSON.parse(readFileSync(join(import.meta.dirname, '../../../fixtures/peers/h100.json'), 'utf8')));

beforeEach(() => {
  localStorage.clear();
  devicesApi.inspectDevices.mockResolvedValue(loadReport('devices-fixture-cpu-only.json'));
});

afterEach(() => {
  vi.clearAllMocks();
  shell.desktop = false;
  i18n.global.locale.value = 'en';
});

describe('the Python panel', () => {
  it('names the interpreter and each library with its version, NumPy\u2019s BLAS and the devices torch and CuPy see', async () => {
    devicesApi.inspectPython.mockResolvedValue(h100);
    const panel = mountDevicesView();
    await flushPromises();
    expect(panel.get('[data-testid="python-interpreter"]').text()).toBe('Python 3.12.3: /opt/torch/.venv/bin/python3');
    expect(panel.get('[data-testid="python-numpy"]').text()).toContain('scipy-openblas 0.3.34.0.0');
    expect(panel.get('[data-testid="python-torch"]').text()).toMatch(/2\.11\.0\+cu130.*1 device\(s\), NVIDIA H100 80GB HBM3/);
    expect(panel.get('[data-testid="python-cupy"]').text()).toContain('NVIDIA H100 80GB HBM3');
  });

  it('gives a missing library its reason, in Spanish too', async () => {
    if (!h100.available) throw new Error('fixture');
    devicesApi.inspectPython.mockResolvedValue({ ...h100, probe: { ...h100.probe, libraries: { ...h100.probe.libraries, torch: { found: false, reason: "not installed for this interpreter (No module named 'torch')" } } } });
    i18n.global.locale.value = 'es';
    const panel = mountDevicesView();
    await flushPromises();
    expect(panel.get('[data-testid="python-torch"]').text()).toContain("No module named 'torch'");
    expect(panel.get('[data-testid="python-peers"] h2').text()).toBe('Python del curso');
  });

  it('says there is no interpreter, naming the one asked for', async () => {
    devicesApi.inspectPython.mockResolvedValue({ interpreter: 'python3', available: false, reason: 'There is no Python interpreter "python3" on this machine' });
    const panel = mountDevicesView();
    await flushPromises();
    expect(panel.get('[data-testid="python-missing"]').text()).toBe('No Python peers with python3: There is no Python interpreter "python3" on this machine.');
  });
});

const venv = '/home/ana/venv/bin/python3';
const setting = (change: Partial<PythonSetting> = {}): PythonSetting => ({ interpreter: 'python3', source: 'default', setting: null, environment: null, problem: null, ...change });
const missing = (interpreter: string, source: PythonSetting['source']) => ({ interpreter, available: false as const, reason: `There is no Python interpreter "${interpreter}" on this machine`, source });

describe('the Python panel in a browser (serve mode)', () => {
  it('says which interpreter is used and that it is chosen at the server, and offers no way to set it', async () => {
    devicesApi.inspectPython.mockResolvedValue({ ...h100, interpreter: '/opt/torch/.venv/bin/python3', source: 'environment' });
    const panel = mountDevicesView();
    await flushPromises();
    const section = panel.get('[data-testid="python-peers"]');
    expect(section.get('[data-testid="python-in-use"]').text()).toBe('In use: /opt/torch/.venv/bin/python3 (named at the server: gpu-lab serve --python PATH, or GPU_LAB_PYTHON).');
    expect(section.get('[data-testid="python-server-choice"]').text()).toContain('gpu-lab serve --python PATH');
    expect(section.find('[data-testid="python-setting"]').exists()).toBe(false);
    expect(section.findAll('input, button, select, textarea')).toHaveLength(0);
    expect(desktopApi.pythonSetting).not.toHaveBeenCalled();
  });

  it('names the default as python3 from the PATH, in Spanish too', async () => {
    devicesApi.inspectPython.mockResolvedValue(missing('python3', 'default'));
    i18n.global.locale.value = 'es';
    const panel = mountDevicesView();
    await flushPromises();
    expect(panel.get('[data-testid="python-in-use"]').text()).toBe('En uso: python3 (el predeterminado: python3 del PATH).');
    expect(panel.get('[data-testid="python-server-choice"]').text()).toContain('gpu-lab serve --python RUTA');
  });
});

describe('the Python panel in the desktop app', () => {
  beforeEach(() => {
    shell.desktop = true;
  });

  it('shows the setting, sets a typed path, then asks the new interpreter', async () => {
    desktopApi.pythonSetting.mockResolvedValue(setting());
    devicesApi.inspectPython.mockResolvedValueOnce(missing('python3', 'default')).mockResolvedValueOnce({ ...h100, interpreter: venv, source: 'settings' });
    desktopApi.setPython.mockResolvedValue(setting({ interpreter: venv, source: 'settings', setting: venv }));
    const panel = mountDevicesView();
    await flushPromises();
    expect(panel.get('[data-testid="python-in-use"]').text()).toBe('In use: python3 (the default: python3 from the PATH).');
    expect(panel.find('[data-testid="python-server-choice"]').exists()).toBe(false);
    expect(panel.get('[data-testid="python-reset"]').attributes('disabled')).toBeDefined();
    await panel.get('#python-path').setValue(`  ${venv} `);
    await panel.get('[data-testid="python-setting"]').trigger('submit');
    await flushPromises();
    expect(desktopApi.setPython).toHaveBeenCalledWith(venv);
    expect(devicesApi.inspectPython).toHaveBeenCalledTimes(2);
    expect(panel.get('[data-testid="python-in-use"]').text()).toBe(`In use: ${venv} (chosen in this app’s settings).`);
    expect(panel.get('[data-testid="python-interpreter"]').text()).toContain('Python 3.12.3');
    expect((panel.get('#python-path').element as HTMLInputElement).value).toBe(venv);
    expect(panel.get('[data-testid="python-reset"]').attributes('disabled')).toBeUndefined();
  });

  it('words a refusal by its reason in the reader’s language and asks nothing again', async () => {
    desktopApi.pythonSetting.mockResolvedValue(setting());
    devicesApi.inspectPython.mockResolvedValue(missing('python3', 'default'));
    desktopApi.setPython.mockRejectedValue(new ApiError({ code: 'INVALID_ARGUMENT', message: 'The setting "python" = "venv/bin/python" is not allowed', details: { field: 'python', value: 'venv/bin/python', reason: 'relative' } }));
    i18n.global.locale.value = 'es';
    const panel = mountDevicesView();
    await flushPromises();
    await panel.get('#python-path').setValue('venv/bin/python');
    await panel.get('[data-testid="python-setting"]').trigger('submit');
    await flushPromises();
    expect(panel.get('[data-testid="python-setting-error"]').text()).toBe('venv/bin/python es una ruta relativa: indica la ruta completa, que empieza por /');
    expect(devicesApi.inspectPython).toHaveBeenCalledTimes(1);
  });

  it('says a run in progress keeps the interpreter', async () => {
    desktopApi.pythonSetting.mockResolvedValue(setting({ interpreter: venv, source: 'settings', setting: venv }));
    devicesApi.inspectPython.mockResolvedValue({ ...h100, interpreter: venv, source: 'settings' });
    desktopApi.resetPython.mockRejectedValue(new ApiError({ code: 'DEVICE_BUSY', message: 'A run is in progress', details: { field: 'python', reason: 'run-in-progress' } }));
    const panel = mountDevicesView();
    await flushPromises();
    await panel.get('[data-testid="python-reset"]').trigger('click');
    await flushPromises();
    expect(desktopApi.resetPython).toHaveBeenCalled();
    expect(panel.get('[data-testid="python-setting-error"]').text()).toContain('A run is in progress: the interpreter can be changed once it has ended');
  });

  it('chooses with the dialog, and a cancelled dialog changes nothing', async () => {
    desktopApi.pythonSetting.mockResolvedValue(setting());
    devicesApi.inspectPython.mockResolvedValue(missing('python3', 'default'));
    desktopApi.choosePython.mockResolvedValueOnce(null).mockResolvedValueOnce(setting({ interpreter: venv, source: 'settings', setting: venv }));
    const panel = mountDevicesView();
    await flushPromises();
    await panel.get('[data-testid="python-choose"]').trigger('click');
    await flushPromises();
    expect(devicesApi.inspectPython).toHaveBeenCalledTimes(1);
    await panel.get('[data-testid="python-choose"]').trigger('click');
    await flushPromises();
    expect(devicesApi.inspectPython).toHaveBeenCalledTimes(2);
    expect((panel.get('#python-path').element as HTMLInputElement).value).toBe(venv);
  });

  it('says GPU_LAB_PYTHON wins over the setting, and a setting that would no longer start', async () => {
    desktopApi.pythonSetting.mockResolvedValue(
      setting({ interpreter: '/usr/bin/python3.12', source: 'environment', setting: venv, environment: '/usr/bin/python3.12', problem: { reason: 'missing', message: 'there is no file there' } }),
    );
    devicesApi.inspectPython.mockResolvedValue(missing('/usr/bin/python3.12', 'environment'));
    const panel = mountDevicesView();
    await flushPromises();
    expect(panel.get('[data-testid="python-in-use"]').text()).toBe('In use: /usr/bin/python3.12 (named by GPU_LAB_PYTHON, which the app was started with; it wins over the app’s setting).');
    expect(panel.get('[data-testid="python-env-wins"]').text()).toContain('GPU_LAB_PYTHON=/usr/bin/python3.12 was set when the app started');
    expect(panel.get('[data-testid="python-setting-problem"]').text()).toBe(`The interpreter in the settings would not start now: there is no file at ${venv}`);
  });
});
