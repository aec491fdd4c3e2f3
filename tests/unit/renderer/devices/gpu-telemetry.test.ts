// The live panel: without NVML it says so and why, and never asks; a reading NVML cannot give says its reason; the
// values now come with the last minute's range and line, the clock limits in words; a failed reading shows its
// error once and keeps the last values; the device page without NVML says why instead of empty values.
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { CudaDeviceInfo, LibraryStatus, Telemetry } from '../../../../main/common/device-report.ts';
import GpuTelemetry from '../../../../renderer/components/devices/GpuTelemetry.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { devicesApi } from './fake-api.ts';
import { loadReport, mountDevicesView, reading } from './fixtures.ts';

vi.mock('../../../../renderer/api/index.ts', async () => (await import('./fake-api.ts')).apiModule());
// Unmounted after each test, so that no panel keeps polling into the next one.
enableAutoUnmount(afterEach);

const report = loadReport('devices-h100.json');
const device: CudaDeviceInfo = report.cuda.devices[0] ?? expect.fail('The H100 fixture has no GPU');
const NO_NVML_REASON = 'none of libnvidia-ml.so.1 could be opened (libnvidia-ml.so.1: cannot open shared object file: No such file or directory)';
const noNvml: LibraryStatus = { found: false, soname: null, path: null, version: null, reason: NO_NVML_REASON, searched: [] };
const unavailable = (reason: string): Partial<Telemetry> => ({
  available: false,
  reason,
  smClockMHz: null,
  memoryClockMHz: null,
  temperatureC: null,
  powerW: null,
  powerLimitW: null,
  gpuUtilizationPercent: null,
  memoryUtilizationPercent: null,
  throttleReasons: null,
});

function mountPanel(nvml: LibraryStatus, initial: Telemetry | null) {
  return mount(GpuTelemetry, { props: { device, nvml, initial }, global: { plugins: [createPinia(), i18n] } });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  devicesApi.readTelemetry.mockImplementation(async () => reading(report, Date.now()));
});

afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
  document.body.innerHTML = '';
});

describe('the live readings panel', () => {
  it('says why there are no readings without NVML, and never asks for one', async () => {
    const wrapper = mountPanel(noNvml, reading(report, 0, unavailable(NO_NVML_REASON)));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(wrapper.get('[data-testid="telemetry-unavailable"]').text()).toContain(`No live readings: ${NO_NVML_REASON}`);
    expect(wrapper.get('[data-testid="telemetry-unavailable"]').text()).toContain('NVML, the NVIDIA management library');
    expect(wrapper.find('[data-reading]').exists()).toBe(false);
    expect(devicesApi.readTelemetry).not.toHaveBeenCalled();
  });

  it('says why when NVML cannot read this GPU', async () => {
    devicesApi.readTelemetry.mockImplementation(async () => reading(report, Date.now(), unavailable('NVML does not know cuda:0')));
    const wrapper = mountPanel(report.cuda.libraries.nvml, null);
    await vi.advanceTimersByTimeAsync(0);
    expect(wrapper.get('[data-testid="telemetry-unavailable"]').text()).toContain('No live readings: NVML does not know cuda:0');
  });

  it('shows the values now, the last minute’s range and line, and the clock limits in words', async () => {
    let watts = 70;
    devicesApi.readTelemetry.mockImplementation(async () => {
      watts += 100;
      return reading(report, Date.now(), { powerW: watts, temperatureC: 40, throttleReasons: ['sw-power-cap', 'some-new-reason'] });
    });
    const wrapper = mountPanel(report.cuda.libraries.nvml, report.telemetry[0] ?? null);
    // Readings at 0, 1.5 s and 3 s: 170, 270 and 370 W.
    await vi.advanceTimersByTimeAsync(1500 * 2);
    await flushPromises();
    const power = wrapper.get('[data-reading="power"]');
    expect(power.get('dt').text()).toBe('Power');
    expect(power.get('.now').text()).toBe('370 W of 700 W');
    expect(power.get('.range').text()).toBe('last minute: 170 W to 370 W');
    expect(power.findAll('polyline')).toHaveLength(1);
    expect(power.get('polyline').attributes('points')?.split(' ')).toHaveLength(3);
    expect(wrapper.get('[data-reading="temperature"] .now').text()).toBe('40 °C');
    const reasons = wrapper.findAll('[data-reading="reasons"] li').map((li) => li.text());
    expect(reasons).toEqual(['held under the power limit sw-power-cap', 'some-new-reason some-new-reason']);
  });

  it('shows a failed reading once, keeps the last values, and clears it when readings return', async () => {
    devicesApi.readTelemetry
      .mockResolvedValueOnce(reading(report, Date.now()))
      .mockRejectedValueOnce(new Error('The compute host exited (signal SIGSEGV)'))
      .mockRejectedValueOnce(new Error('The compute host is starting'));
    const wrapper = mountPanel(report.cuda.libraries.nvml, null);
    await vi.advanceTimersByTimeAsync(1500);
    await flushPromises();
    const alerts = wrapper.findAll('[role="alert"]');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.text()).toMatch(
      /^Reading the GPU failed: The compute host exited \(signal SIGSEGV\)\. Trying again, less often, until it works\. The values below were read at \S/,
    );
    expect(wrapper.get('[data-reading="smClock"] .now').text()).toBe('1,980 MHz');
    await vi.advanceTimersByTimeAsync(3000);
    await flushPromises();
    expect(wrapper.findAll('[role="alert"]')).toHaveLength(1);
    expect(wrapper.get('[role="alert"]').text()).toContain('signal SIGSEGV');
    await vi.advanceTimersByTimeAsync(6000);
    await flushPromises();
    expect(wrapper.find('[role="alert"]').exists()).toBe(false);
  });
});

describe('the devices page without NVML', () => {
  it('shows the reason in the live panel instead of empty values', async () => {
    vi.useRealTimers();
    localStorage.clear();
    devicesApi.inspectDevices.mockResolvedValue({
      ...report,
      cuda: { ...report.cuda, libraries: { ...report.cuda.libraries, nvml: noNvml } },
      telemetry: [reading(report, 0, unavailable(NO_NVML_REASON))],
    });
    const wrapper = mountDevicesView();
    await flushPromises();
    expect(wrapper.get('[data-testid="telemetry-unavailable"]').text()).toContain(`No live readings: ${NO_NVML_REASON}`);
    expect(wrapper.get('[data-library="nvml"]').text()).toContain('missing');
    expect(devicesApi.readTelemetry).not.toHaveBeenCalled();
  });
});
