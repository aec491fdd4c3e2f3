// The devices page's Python panel: what gpu-lab peers says, as the GPU machine said it (every library found, torch
// and CuPy seeing the H100) and as a machine without them says it (each library missing with its reason, or no
// interpreter at all), in English and Spanish.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { enableAutoUnmount, flushPromises } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { PEERS_REPORT } from '../../../../main/common/peer-protocol.ts';
import { devicesApi } from './fake-api.ts';
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
