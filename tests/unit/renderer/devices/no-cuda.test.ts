// This build machine's report (a CPU, no NVIDIA driver, no CUDA library): the CPU inspector with every field and the
// CPU GEMM library, the reason there is no CUDA device and what still works, each library missing with its reason
// and what it disables, and no telemetry asked for.
import { enableAutoUnmount, flushPromises } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { devicesApi } from './fake-api.ts';
import { fieldsOf, loadReport, mountDevicesView } from './fixtures.ts';

vi.mock('../../../../renderer/api/index.ts', async () => (await import('./fake-api.ts')).apiModule());
// Unmounted after each test, so that no panel keeps polling into the next one.
enableAutoUnmount(afterEach);

const report = loadReport('devices-fixture-cpu-only.json');

beforeEach(() => {
  localStorage.clear();
  devicesApi.inspectDevices.mockResolvedValue(report);
});

afterEach(() => {
  vi.clearAllMocks();
  document.body.innerHTML = '';
});

describe('the devices page without a CUDA device', () => {
  it('shows the CPU\u2019s measured memory bandwidth with how it was measured, and none where it was not', async () => {
    const cpu = report.list.devices.find((d) => d.kind === 'cpu');
    if (!cpu) throw new Error('no CPU in the fixture');
    const measured = { ...cpu, peakMemoryGBps: 16.83, details: { ...cpu.details, peakMemorySource: 'measured', peakMemoryFormula: 'measured 2026-11-26T06:16:50Z: STREAM-style add, 3 fp32 arrays of 256 MiB, 2 threads, best of 4 runs' } };
    devicesApi.inspectDevices.mockResolvedValue({ ...report, list: { ...report.list, devices: report.list.devices.map((d) => (d === cpu ? measured : d)) } });
    const wrapper = mountDevicesView();
    await flushPromises();
    const section = wrapper.get('[data-testid="cpu-bandwidth"]');
    expect(section.text()).toContain('16.83 GB/s');
    expect(section.get('code').text()).toBe('measured 2026-11-26T06:16:50Z: STREAM-style add, 3 fp32 arrays of 256 MiB, 2 threads, best of 4 runs');
    wrapper.unmount();
    devicesApi.inspectDevices.mockResolvedValue(report);
    const plain = mountDevicesView();
    await flushPromises();
    expect(plain.find('[data-testid="cpu-bandwidth"]').exists()).toBe(false);
  });

  it('inspects the CPU: model, cores, SIMD, caches, memory and the GEMM library', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    expect(wrapper.find('[data-testid="gpu-inspector"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="cpu-inspector"] h2').text()).toBe('Intel(R) Xeon(R) Processor');
    const values = Object.fromEntries(Object.entries(fieldsOf(wrapper)).map(([id, f]) => [id, [f.group, f.value]]));
    expect(values).toEqual({
      model: ['processor', 'Intel(R) Xeon(R) Processor'],
      cores: ['processor', '2 physical, 2 logical'],
      simd: ['processor', 'sse4.2 avx avx2 fma avx512f avx512bw avx512vl avx512bf16'],
      l2: ['memory', '2 MiB'],
      // 272 629 760 B = 260 MiB; 25 276 510 208 B / 2³⁰ = 23.54 GiB.
      l3: ['memory', '260 MiB'],
      memory: ['memory', '23.5 GiB'],
      blas: ['gemm', 'OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64 (libopenblas.so.0)'],
    });
    expect(wrapper.get('[data-testid="cpu-inspector"]').text()).toContain('There is no theoretical FLOP peak for the CPU');
    // The last-level cache says where its size comes from, and that a virtual machine may see less of it.
    expect(wrapper.get('[data-field="l3"] .hint').text()).toMatch(/as the CPU reports it \(CPUID, through glibc\)\. A virtual machine may be given only part of it/);
  });

  it('shows the CPU\'s peaks as an estimate with its arithmetic where one is known, and why not where none is', async () => {
    const cpu = report.list.devices[0];
    if (!cpu) throw new Error('no CPU in the fixture');
    const estimated = {
      ...cpu,
      peakGflopsFp32: 3584,
      peakGflopsFp64: 1792,
      details: { ...cpu.details, peakSource: 'estimate', peakFp32Formula: 'estimate: 16 cores × 3500 MHz (cpufreq maximum) × 16 fp32 lanes (AVX-512) × 2 FMA units (Intel Xeon Scalable) × 2 FLOP = 3584 GFLOP/s', peakFp64Formula: 'estimate: … = 1792 GFLOP/s' },
    };
    devicesApi.inspectDevices.mockResolvedValue({ ...report, list: { ...report.list, devices: [estimated] } });
    const wrapper = mountDevicesView();
    await flushPromises();
    const estimate = wrapper.get('[data-testid="cpu-peak-estimate"]');
    expect(estimate.get('h3').text()).toBe('Estimated peaks');
    expect(estimate.text()).toContain('An estimate, not a measurement');
    expect(estimate.get('[data-peak="fp32"] .value').text()).toBe('3.584 TFLOP/s');
    expect(estimate.get('[data-peak="fp32"] code').text()).toMatch(/^estimate: 16 cores × 3500 MHz/);
    expect(wrapper.get('[data-testid="cpu-inspector"]').text()).not.toContain('There is no theoretical peak');

    const unknown = { ...cpu, details: { ...cpu.details, peakReason: 'no FLOP peak: neither cpufreq nor the model name gives the maximum clock' } };
    devicesApi.inspectDevices.mockResolvedValue({ ...report, list: { ...report.list, devices: [unknown] } });
    const again = mountDevicesView();
    await flushPromises();
    expect(again.get('[data-testid="cpu-inspector"]').text()).toContain('There is no theoretical FLOP peak for the CPU (no FLOP peak: neither cpufreq nor the model name gives the maximum clock)');
  });

  it('says first why there is no CUDA device and what still works', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    expect(wrapper.findAll('h2')[0]?.text()).toBe('No CUDA device on this machine');
    const notice = wrapper.get('[data-testid="no-cuda"]');
    expect(notice.get('h2').text()).toBe('No CUDA device on this machine');
    // main's reason is "no CUDA device: no NVIDIA driver…"; the heading already says the first part.
    expect(notice.get('.reason').text()).toBe('Why: no NVIDIA driver is installed (libcuda.so.1 was not found)');
    expect(notice.text()).toContain('Every CPU series of every lab still runs');
    expect(notice.text()).toContain('The GPU series are waived: shown as not run, never as failed.');
    expect(wrapper.get('.versions').text()).toContain('13.0');
  });

  it('names each missing library with its reason, where else it was looked for and what it disables', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    const row = (id: string) => wrapper.get(`[data-library="${id}"]`).findAll('th, td').map((c) => c.text());
    const where = (id: string) => {
      const cell = wrapper.get(`[data-library="${id}"] .where`);
      return { reason: cell.get('code').text(), searched: cell.get('.searched').text(), folders: cell.findAll('.folders code').map((c) => c.text()) };
    };
    expect(row('cublas')).toEqual([
      'cuBLAS',
      'missing',
      '—',
      expect.any(String),
      'Disabled: GPU matrix multiplications (GEMM) in the matmul, dtypes, matmul-breakeven and timing-pitfalls labs and in the bench, and the cuBLAS comparisons beside your kernels in the playground',
    ]);
    expect(where('cublas')).toEqual({ reason: report.cuda.libraries.cublas.reason, searched: 'Looked for in the system’s library path, then in:', folders: ['/usr/local/cuda/lib64'] });
    expect(row('nvrtc')).toEqual(['NVRTC', 'missing', '—', expect.any(String), 'Disabled: the kernel playground, which compiles your CUDA kernels while the app runs']);
    expect(where('nvrtc')).toEqual({ reason: report.cuda.libraries.nvrtc.reason, searched: 'Looked for in the system’s library path, then in:', folders: ['/usr/local/cuda/lib64'] });
    expect(row('nvml')).toEqual(['NVML', 'missing', '—', expect.any(String), 'Disabled: live readings (clocks, temperature, power, clock limits), here and in each run’s record']);
    // NVML comes with the driver: the loader's path is the one place for it.
    expect(where('nvml')).toEqual({
      reason: 'none of libnvidia-ml.so.1 could be opened (libnvidia-ml.so.1: cannot open shared object file: No such file or directory)',
      searched: 'Looked for in the system’s library path only.',
      folders: [],
    });
    // Without a CUDA device, installing cuBLAS or NVRTC would change nothing: no commands are offered.
    expect(wrapper.find('[data-testid="library-install"]').exists()).toBe(false);
  });

  it('marks the CPU as what the labs use, and never asks for telemetry', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    expect(wrapper.findAll('[data-device]').map((d) => d.attributes('data-device'))).toEqual(['cpu']);
    expect(wrapper.get('[data-device="cpu"] [data-testid="used-by-labs"]').text()).toBe('Used by the labs: CPU only');
    expect(devicesApi.readTelemetry).not.toHaveBeenCalled();
  });

  it('says why when the devices cannot be read', async () => {
    devicesApi.inspectDevices.mockRejectedValue(new Error('The compute host exited (signal SIGSEGV)'));
    const wrapper = mountDevicesView();
    await flushPromises();
    expect(wrapper.get('[role="alert"]').text()).toBe('The devices could not be read: The compute host exited (signal SIGSEGV)');
  });
});
