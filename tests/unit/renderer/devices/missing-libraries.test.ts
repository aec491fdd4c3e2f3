// A student's machine with a GPU and the NVIDIA driver alone (the H100's recorded report with cuBLAS and NVRTC not
// found): the devices page says which library is missing, where it was looked for, what it disables, and the
// commands that install it, in English and in Spanish.
import { enableAutoUnmount, flushPromises } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { DeviceReport, LibraryStatus } from '../../../../main/common/device-report.ts';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { devicesApi } from './fake-api.ts';
import { loadReport, mountDevicesView, reading } from './fixtures.ts';

vi.mock('../../../../renderer/api/index.ts', async () => (await import('./fake-api.ts')).apiModule());
enableAutoUnmount(afterEach);

const SEARCHED = ['/usr/local/cuda/lib64', '/home/ana/miniconda3/lib', '/home/ana/.local/lib/python3.12/site-packages/nvidia/cu13/lib'];
const missing = (soname: string): LibraryStatus => ({
  found: false,
  soname: null,
  path: null,
  version: null,
  reason: `none of ${soname}.13, ${soname}.12 could be opened from the loader's path or 3 other folders (${soname}.13: cannot open shared object file: No such file or directory)`,
  searched: SEARCHED,
});

const recorded = loadReport('devices-h100.json');
const driverOnly: DeviceReport = { ...recorded, cuda: { ...recorded.cuda, libraries: { ...recorded.cuda.libraries, cublas: missing('libcublas.so'), nvrtc: missing('libnvrtc.so') } } };

beforeEach(() => {
  localStorage.clear();
  devicesApi.inspectDevices.mockResolvedValue(driverOnly);
  devicesApi.readTelemetry.mockImplementation(async () => reading(recorded, Date.now()));
});

afterEach(() => {
  vi.clearAllMocks();
  i18n.global.locale.value = 'en';
  document.body.innerHTML = '';
});

interface Install {
  disables: string;
  apt: string;
  pip: string;
}

function installs(wrapper: ReturnType<typeof mountDevicesView>): Record<string, Install> {
  return Object.fromEntries(
    wrapper.findAll('[data-install]').map((d) => [d.attributes('data-install'), { disables: d.get('.disables').text(), apt: d.get('[data-command="apt"]').text(), pip: d.get('[data-command="pip"]').text() }]),
  );
}

describe('the devices page on a machine with the driver alone', () => {
  it('lists the folders searched for cuBLAS and NVRTC beside the reason each is missing', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    for (const id of ['cublas', 'nvrtc'] as const) {
      const cell = wrapper.get(`[data-library="${id}"] .where`);
      expect(cell.get('code').text()).toBe(driverOnly.cuda.libraries[id].reason);
      expect(cell.get('.searched').text()).toBe('Looked for in the system’s library path, then in:');
      expect(cell.findAll('.folders code').map((c) => c.text())).toEqual(SEARCHED);
    }
    // NVML was found: no folders, no commands for it.
    expect(wrapper.find('[data-library="nvml"] .searched').exists()).toBe(false);
  });

  it('says what each missing library disables and the commands that install it, then to restart', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    const section = wrapper.get('[data-testid="library-install"]');
    expect(section.get('h3').text()).toBe('Getting the missing libraries');
    expect(section.text()).toContain('The NVIDIA driver does not include cuBLAS or NVRTC.');
    expect(installs(wrapper)).toEqual({
      cublas: {
        disables: 'Disabled: GPU matrix multiplications (GEMM) in the matmul, dtypes, matmul-breakeven and timing-pitfalls labs and in the bench, and the cuBLAS comparisons beside your kernels in the playground',
        apt: 'sudo apt install libcublas12',
        pip: "python3 -m pip install 'nvidia-cublas==13.*'",
      },
      nvrtc: {
        disables: 'Disabled: the kernel playground, which compiles your CUDA kernels while the app runs',
        apt: 'sudo apt install libnvrtc12',
        pip: "python3 -m pip install 'nvidia-cuda-nvrtc==13.*'",
      },
    });
    expect(section.get('.restart').text()).toBe('Then restart GPU Lab: it looks for the libraries once, as it starts.');
  });

  it('offers only what is missing: NVRTC alone', async () => {
    devicesApi.inspectDevices.mockResolvedValue({ ...driverOnly, cuda: { ...driverOnly.cuda, libraries: { ...driverOnly.cuda.libraries, cublas: recorded.cuda.libraries.cublas } } });
    const wrapper = mountDevicesView();
    await flushPromises();
    expect(Object.keys(installs(wrapper))).toEqual(['nvrtc']);
  });

  it('in Spanish, with the same commands', async () => {
    i18n.global.locale.value = 'es';
    const wrapper = mountDevicesView();
    await flushPromises();
    const section = wrapper.get('[data-testid="library-install"]');
    expect(section.get('h3').text()).toBe('Cómo conseguir las bibliotecas que faltan');
    expect(wrapper.get('[data-library="nvrtc"] .searched').text()).toBe('Se buscó en la ruta de bibliotecas del sistema y después en:');
    const nvrtc = installs(wrapper).nvrtc;
    expect(nvrtc?.disables).toBe('Desactivado: el taller de kernels, que compila tus kernels CUDA con la aplicación en marcha');
    expect(nvrtc?.apt).toBe('sudo apt install libnvrtc12');
    expect(section.get('.restart').text()).toBe('Después reinicia GPU Lab: busca las bibliotecas una sola vez, al arrancar.');
  });
});
