// The picker on a machine with two GPUs (the H100's report with a second one): the CPU and every GPU listed with
// name, id and memory; the labs' device marked, and changed from here as from the header (one selection); picking a
// device to inspect changes the inspector and not the labs' device.
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { DeviceReport } from '../../../../main/common/device-report.ts';
import DevicePicker from '../../../../renderer/components/DevicePicker.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { useDevicesStore } from '../../../../renderer/stores/devices.ts';
import { devicesApi } from './fake-api.ts';
import { loadReport, mountDevicesView, reading } from './fixtures.ts';

vi.mock('../../../../renderer/api/index.ts', async () => (await import('./fake-api.ts')).apiModule());
// Unmounted after each test, so that no panel keeps polling into the next one.
enableAutoUnmount(afterEach);

function twoGpus(): DeviceReport {
  const report = loadReport('devices-h100.json');
  const [cpu, gpu0] = report.list.devices;
  const info0 = report.cuda.devices[0];
  if (!cpu || !gpu0 || !info0) throw new Error('The H100 fixture lacks its CPU or GPU');
  const gpu1 = { ...gpu0, id: 'cuda:1', name: 'NVIDIA H100 80GB HBM3 (second)', memoryBytes: 42949672960 };
  const info1 = { ...info0, id: 'cuda:1' as const, ordinal: 1, name: gpu1.name, memoryTotalBytes: 42949672960, pciBusId: '0000:00:07.0' };
  return {
    list: { ...report.list, devices: [cpu, gpu0, gpu1] },
    cuda: { ...report.cuda, devices: [info0, info1] },
    telemetry: [...report.telemetry, reading(report, 1, { device: 'cuda:1' })],
  };
}

const report = twoGpus();

beforeEach(() => {
  localStorage.clear();
  devicesApi.inspectDevices.mockResolvedValue(report);
  devicesApi.readTelemetry.mockImplementation(async (device) => reading(report, Date.now(), { device: device === 'cuda:1' ? 'cuda:1' : 'cuda:0' }));
});

afterEach(() => {
  vi.clearAllMocks();
  document.body.innerHTML = '';
});

describe('the device picker', () => {
  it('lists the CPU and every GPU with name, id and memory, the labs’ device marked', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    const items = wrapper.findAll('[data-device]').map((li) => [li.get('.name').text(), li.get('.meta').text()]);
    expect(items).toEqual([
      ['Intel(R) Xeon(R) Processor', 'CPU · 126 GiB'],
      ['NVIDIA H100 80GB HBM3', 'cuda:0 · 79.2 GiB'],
      ['NVIDIA H100 80GB HBM3 (second)', 'cuda:1 · 40 GiB'],
    ]);
    // With no choice made, the labs use the first GPU, and the inspector shows it.
    expect(wrapper.findAll('[data-testid="used-by-labs"]').map((b) => b.element.closest('[data-device]')?.getAttribute('data-device'))).toEqual(['cuda:0']);
    expect(wrapper.get('[data-device="cuda:0"] .inspect').attributes('aria-pressed')).toBe('true');
    expect(wrapper.get('[data-device="cuda:1"] .use').attributes('aria-label')).toBe('Use for the labs: cuda:1 NVIDIA H100 80GB HBM3 (second)');
  });

  it('changes the labs’ device, the same selection as the header’s picker', async () => {
    const pinia = createPinia();
    const wrapper = mountDevicesView(pinia);
    const header = mount(DevicePicker, { global: { plugins: [pinia, i18n] } });
    await flushPromises();
    await wrapper.get('[data-device="cuda:1"] .use').trigger('click');
    expect(useDevicesStore(pinia).selected?.id).toBe('cuda:1');
    expect((header.get('select').element as HTMLSelectElement).value).toBe('cuda:1');
    expect(wrapper.get('[data-device="cuda:1"] [data-testid="used-by-labs"]').text()).toBe('Used by the labs');
    await wrapper.get('[data-device="cpu"] .use').trigger('click');
    expect((header.get('select').element as HTMLSelectElement).value).toBe('cpu');
    expect(wrapper.get('[data-device="cpu"] [data-testid="used-by-labs"]').text()).toBe('Used by the labs: CPU only');
    // And the other way: the header's choice shows here.
    await header.get('select').setValue('cuda:0');
    expect(wrapper.find('[data-device="cuda:0"] [data-testid="used-by-labs"]').exists()).toBe(true);
  });

  it('inspects the device picked without changing the labs’ device', async () => {
    const pinia = createPinia();
    const wrapper = mountDevicesView(pinia);
    await flushPromises();
    await wrapper.get('[data-device="cuda:1"] .inspect').trigger('click');
    await flushPromises();
    expect(wrapper.get('[data-testid="gpu-inspector"] h2').text()).toBe('NVIDIA H100 80GB HBM3 (second)');
    expect(wrapper.get('[data-field="pciBusId"] .value').text()).toBe('0000:00:07.0');
    expect(wrapper.get('[data-device="cuda:1"] .inspect').attributes('aria-pressed')).toBe('true');
    expect(wrapper.get('[data-device="cuda:0"] .inspect').attributes('aria-pressed')).toBe('false');
    expect(devicesApi.readTelemetry).toHaveBeenLastCalledWith('cuda:1');
    expect(useDevicesStore(pinia).selected?.id).toBe('cuda:0');

    await wrapper.get('[data-device="cpu"] .inspect').trigger('click');
    expect(wrapper.get('[data-testid="cpu-inspector"] h2').text()).toBe('Intel(R) Xeon(R) Processor');
    expect(wrapper.get('[data-field="cores"] .value').text()).toBe('16 physical, 16 logical');
  });

  it('is made of buttons a keyboard reaches, under headings in order', async () => {
    const wrapper = mountDevicesView();
    await flushPromises();
    for (const b of wrapper.findAll('[data-device] button')) {
      expect(b.element.tagName).toBe('BUTTON');
      expect(b.attributes('type')).toBe('button');
    }
    const levels = wrapper.findAll('h1, h2, h3').map((h) => Number(h.element.tagName.slice(1)));
    expect(levels[0]).toBe(1);
    // Never a level skipped on the way down.
    levels.forEach((level, i) => expect(level - (levels[i - 1] ?? 0)).toBeLessThanOrEqual(1));
  });
});
