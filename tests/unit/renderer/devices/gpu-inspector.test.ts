// The inspector on the H100's recorded report: every attribute `gpu-lab devices` prints (and the few more the
// report holds) in its group with the value formatted as the page shows it, the four peaks with their value and
// their formula verbatim, the CUDA versions and the libraries found with version and path.
import { enableAutoUnmount, flushPromises } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { CudaDeviceInfo } from '../../../../main/common/device-report.ts';
import { devicesApi } from './fake-api.ts';
import { fieldsOf, loadReport, mountDevicesView, reading } from './fixtures.ts';

vi.mock('../../../../renderer/api/index.ts', async () => (await import('./fake-api.ts')).apiModule());
// Unmounted after each test, so that no panel keeps polling into the next one.
enableAutoUnmount(afterEach);

const report = loadReport('devices-h100.json');

beforeEach(() => {
  localStorage.clear();
  devicesApi.inspectDevices.mockResolvedValue(report);
  devicesApi.readTelemetry.mockImplementation(async () => reading(report, Date.now()));
});

afterEach(() => {
  vi.clearAllMocks();
  document.body.innerHTML = '';
});

// Where each attribute of the device appears: [field id, group, the value as shown]. `kind` and `ordinal` are in
// the id; the peaks have their own section.
const SHOWN: Record<Exclude<keyof CudaDeviceInfo, 'kind' | 'ordinal' | 'peaks'>, [string, string, string][]> = {
  name: [['name', 'identity', 'NVIDIA H100 80GB HBM3']],
  id: [['id', 'identity', 'cuda:0']],
  uuid: [['uuid', 'identity', 'GPU-8e8d6ebe-3d81-25c4-b07f-3da580fbbed1']],
  pciBusId: [['pciBusId', 'identity', '0000:00:06.0']],
  computeCapability: [['computeCapability', 'identity', '9.0']],
  integrated: [['integrated', 'identity', 'no: a separate card with its own memory']],
  multiprocessors: [['multiprocessors', 'compute', '132']],
  smClockMHz: [['smClock', 'compute', '1,980 MHz']],
  maxSmClockMHz: [['maxSmClock', 'compute', '1,980 MHz']],
  warpSize: [['warpSize', 'compute', '32']],
  registersPerMultiprocessor: [['registers', 'compute', '65,536']],
  maxThreadsPerMultiprocessor: [['threads', 'compute', '2,048']],
  // 85 017 493 504 B / 2³⁰ = 79.18 GiB; 84 465 090 560 B / 2³⁰ = 78.66 GiB.
  memoryTotalBytes: [['memoryTotal', 'memory', '79.2 GiB']],
  memoryFreeBytes: [['memoryFree', 'memory', '78.7 GiB']],
  memoryBusWidthBits: [['busWidth', 'memory', '5,120-bit']],
  memoryClockMHz: [['memoryClock', 'memory', '2,619 MHz']],
  l2CacheBytes: [['l2', 'memory', '50 MiB']],
  eccEnabled: [['ecc', 'memory', 'yes']],
  sharedMemoryPerBlockBytes: [['sharedPerBlock', 'shared', '48 KiB']],
  sharedMemoryPerBlockOptinBytes: [['sharedPerBlockOptin', 'shared', '227 KiB']],
  sharedMemoryPerMultiprocessorBytes: [['sharedPerSm', 'shared', '228 KiB']],
  copyEngines: [['copyEngines', 'copies', '3']],
  concurrentCopyAndExecution: [['overlap', 'copies', 'yes']],
  concurrentKernels: [['concurrentKernels', 'copies', 'yes']],
  pcie: [
    ['pcieCurrent', 'copies', 'gen 5 ×16'],
    ['pcieMax', 'copies', 'gen 5 ×16'],
  ],
  powerLimitW: [['powerLimit', 'power', '700 W']],
};

describe('the GPU inspector', () => {
  it('shows every attribute of the device in its group, formatted', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    const device = report.cuda.devices[0];
    expect(device).toBeDefined();
    // A new attribute in the report must find a place on the page.
    expect(Object.keys(device ?? {}).sort()).toEqual([...Object.keys(SHOWN), 'kind', 'ordinal', 'peaks'].sort());
    const fields = fieldsOf(wrapper);
    for (const [fieldId, group, value] of Object.values(SHOWN).flat()) {
      expect(fields[fieldId], fieldId).toMatchObject({ group, value });
    }
    expect(wrapper.findAll('[data-group] h3').map((h) => h.text())).toEqual(['Identity', 'Compute', 'Memory', 'Shared memory', 'Copies and the link to the host', 'Power']);
    expect(fields.memoryTotal?.label).toBe('Total');
    expect(wrapper.get('h2').text()).toBe('Devices on this machine');
    expect(wrapper.get('[data-testid="gpu-inspector"] h2').text()).toBe('NVIDIA H100 80GB HBM3');
  });

  it('shows each peak with its value, its formula verbatim and what it means', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    const peak = (id: string) => wrapper.get(`[data-peak="${id}"]`);
    const expected = {
      memory: ['Memory bandwidth', '3.352 TB/s', '2 × 2619 MHz × 5120 bit / 8 = 3352.3 GB/s'],
      fp32: ['FP32 (single precision)', '66.91 TFLOP/s', '132 SMs × 128 FP32 cores (compute capability 9.0) × 2 FLOP × 1980 MHz = 66908 GFLOP/s'],
      fp64: ['FP64 (double precision)', '33.45 TFLOP/s', 'FP32 peak 66908 GFLOP/s × 1/2 (data-centre chip, compute capability 9.0) = 33454 GFLOP/s'],
      pcie: ['PCIe (host ↔ GPU)', '63.02 GB/s', '16 lanes × 32.0 GT/s (PCIe 5) × 128b/130b / 8 = 63.0 GB/s per direction'],
    };
    for (const [id, [label, value, formula]] of Object.entries(expected)) {
      expect(peak(id).get('dt').text()).toBe(label);
      expect(peak(id).get('.value').text()).toBe(value);
      expect(peak(id).get('code').text()).toBe(formula);
      expect(peak(id).get('.explain').text()).toMatch(/as a share of it\.$/);
    }
  });

  it('shows the tensor cores\' peaks of the peak table, each with its arithmetic and its source', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    const peak = wrapper.get('[data-peak="fp64-tensor"]');
    expect(peak.get('dt').text()).toBe('FP64 tensor cores');
    expect(peak.get('.value').text()).toBe('66.91 TFLOP/s');
    expect(peak.get('code').text()).toBe('132 SMs × 256 FLOP/clock × 1980 MHz = 66908 GFLOP/s (Hopper, sm_90)');
    expect(peak.get('.source').text()).toMatch(/^Rate per clock from NVIDIA H100 whitepaper/);
    expect(wrapper.get('[data-peak="int8-tensor"] .value').text()).toBe('2,141 TOP/s');
    expect(wrapper.findAll('[data-peak]').map((p) => p.attributes('data-peak'))).toEqual(['memory', 'fp32', 'fp64', 'fp64-tensor', 'tf32-tensor', 'fp16-tensor', 'bf16-tensor', 'int8-tensor', 'pcie']);
  });

  it('gives beside each peak the figure NVIDIA states for an H100 SXM, which the labs’ % of peak divides by', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    // fp16: 1,071 TFLOP/s at the reported 1980 MHz, 989.5 on the datasheet (at 1830 MHz).
    expect(wrapper.get('[data-peak="fp16-tensor"] .value').text()).toBe('1,071 TFLOP/s');
    expect(wrapper.get('[data-peak="fp16-tensor"] [data-testid="peak-datasheet"]').text()).toBe('NVIDIA’s datasheet gives 989.5 TFLOP/s for the H100 SXM: the labs’ % of peak divides by that figure.');
    expect(wrapper.get('[data-peak="memory"] [data-testid="peak-datasheet"]').text()).toContain('3.35 TB/s');
    // PCIe's is the link's, not the card's.
    expect(wrapper.find('[data-peak="pcie"] [data-testid="peak-datasheet"]').exists()).toBe(false);
  });

  it('shows the CUDA versions and each library found with its version, its path and what it is for', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    expect(wrapper.find('[data-testid="no-cuda"]').exists()).toBe(false);
    const versions = wrapper.get('.versions').text();
    expect(versions).toContain('13.0');
    expect(versions).toContain('580.159.04, supports CUDA 13.0');
    const row = (id: string) => wrapper.get(`[data-library="${id}"]`).findAll('th, td').map((c) => c.text());
    expect(row('cublas')).toEqual(['cuBLAS', 'found', '13.1.0', '/usr/local/cuda/targets/x86_64-linux/lib/libcublas.so.13', 'GPU matrix multiplications (GEMM) in the matmul, dtypes, matmul-breakeven and timing-pitfalls labs and in the bench, and the cuBLAS comparisons beside your kernels in the playground']);
    expect(row('nvrtc')).toEqual(['NVRTC', 'found', '13.0', '/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so.13', 'the kernel playground, which compiles your CUDA kernels while the app runs']);
    expect(row('nvml')).toEqual(['NVML', 'found', '580.159.04', '/usr/local/nvidia/lib64/libnvidia-ml.so.1', 'live readings (clocks, temperature, power, clock limits), here and in each run’s record']);
  });

  it('shows the live readings of the GPU now, with its power against the limit', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    const now = (id: string) => wrapper.get(`[data-reading="${id}"] .now`).text();
    expect(now('smClock')).toBe('1,980 MHz');
    expect(now('memoryClock')).toBe('2,619 MHz');
    expect(now('temperature')).toBe('36 °C');
    expect(now('power')).toBe('77 W of 700 W');
    expect(now('gpuUtilization')).toBe('0 %');
    expect(now('memoryUtilization')).toBe('0 %');
    expect(wrapper.get('[data-reading="reasons"] dd').text()).toContain('none: running at full clocks');
    expect(devicesApi.readTelemetry).toHaveBeenCalledWith('cuda:0');
  });
});
