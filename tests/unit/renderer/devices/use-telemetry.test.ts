// useTelemetry polls one GPU only while someone can see it: from mount to unmount, while the page is visible, for
// the device given; a late answer for a device no longer shown is dropped; a failure is reported once and retried
// at a slower and slower rate, and the first success clears it; the history keeps the last minute.
import { enableAutoUnmount, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h, nextTick, ref } from 'vue';
import type { Ref } from 'vue';

import type { Telemetry } from '../../../../main/common/device-report.ts';
import { useTelemetry } from '../../../../renderer/composables/useTelemetry.ts';
import type { TelemetryState } from '../../../../renderer/composables/useTelemetry.ts';
import { devicesApi } from './fake-api.ts';
import { loadReport, reading } from './fixtures.ts';

vi.mock('../../../../renderer/api/index.ts', async () => (await import('./fake-api.ts')).apiModule());
// Unmounted after each test, so that no panel keeps polling into the next one.
enableAutoUnmount(afterEach);

const report = loadReport('devices-h100.json');
const INTERVAL = 1500;

// A panel that only polls, and hands its state to the test.
function mountPanel(device: Ref<string | null>) {
  let state: TelemetryState | undefined;
  const Panel = defineComponent({
    setup() {
      state = useTelemetry({ device, intervalMs: INTERVAL, maxIntervalMs: 12_000, windowMs: 60_000 });
      return () => h('div');
    },
  });
  // The readings come through the devices store.
  const wrapper = mount(Panel, { global: { plugins: [createPinia()] } });
  if (!state) throw new Error('The panel did not set up');
  return { wrapper, state };
}

let hidden = false;

function setHidden(value: boolean): void {
  hidden = value;
  document.dispatchEvent(new Event('visibilitychange'));
}

const calls = (): number => devicesApi.readTelemetry.mock.calls.length;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  hidden = false;
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  devicesApi.readTelemetry.mockImplementation(async (device) => reading(report, Date.now(), { device: device as Telemetry['device'] }));
});

afterEach(() => {
  Reflect.deleteProperty(document, 'hidden');
  vi.useRealTimers();
  vi.clearAllMocks();
});

describe('useTelemetry', () => {
  it('reads at once on mount, then every interval, and stops on unmount', async () => {
    const { wrapper, state } = mountPanel(ref('cuda:0'));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls()).toBe(1);
    expect(state.latest.value?.smClockMHz).toBe(1980);
    await vi.advanceTimersByTimeAsync(INTERVAL * 3);
    expect(calls()).toBe(4);
    expect(state.history.value).toHaveLength(4);
    wrapper.unmount();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls()).toBe(4);
  });

  it('reads nothing while the page is hidden, and at once when it shows again', async () => {
    const { state } = mountPanel(ref('cuda:0'));
    await vi.advanceTimersByTimeAsync(0);
    setHidden(true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls()).toBe(1);
    expect(state.polling.value).toBe(false);
    setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls()).toBe(2);
    expect(state.polling.value).toBe(true);
  });

  it('does not start on a hidden page', async () => {
    hidden = true;
    mountPanel(ref('cuda:0'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls()).toBe(0);
  });

  it('reads nothing without a device', async () => {
    const { state } = mountPanel(ref<string | null>(null));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls()).toBe(0);
    expect(state.latest.value).toBeNull();
  });

  it('starts afresh on another device and drops a late answer for the one before', async () => {
    const device = ref<string | null>('cuda:0');
    let answerLate: (t: Telemetry) => void = () => undefined;
    devicesApi.readTelemetry.mockImplementationOnce(() => new Promise<Telemetry>((resolve) => (answerLate = resolve)));
    const { state } = mountPanel(device);
    device.value = 'cuda:1';
    await nextTick();
    await vi.advanceTimersByTimeAsync(0);
    answerLate(reading(report, Date.now(), { smClockMHz: 1 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(devicesApi.readTelemetry.mock.calls.map((c) => c[0])).toEqual(['cuda:0', 'cuda:1']);
    expect(state.history.value.map((r) => r.device)).toEqual(['cuda:1']);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(devicesApi.readTelemetry).toHaveBeenLastCalledWith('cuda:1');
    expect(state.history.value.every((r) => r.device === 'cuda:1')).toBe(true);
  });

  it('reports a failure once, retries less and less often, and clears it on the first success', async () => {
    devicesApi.readTelemetry
      .mockRejectedValueOnce(new Error('The compute host is restarting'))
      .mockRejectedValueOnce(new Error('Still restarting'))
      .mockRejectedValueOnce(new Error('Still restarting'))
      .mockRejectedValueOnce(new Error('Still restarting'));
    const { state } = mountPanel(ref('cuda:0'));
    await vi.advanceTimersByTimeAsync(0);
    expect(state.error.value).toBe('The compute host is restarting');
    // Failures at 0, 3 s, 9 s, 21 s: 2×, 4×, 8× the interval, then at most 12 s.
    await vi.advanceTimersByTimeAsync(3000);
    await vi.advanceTimersByTimeAsync(6000);
    await vi.advanceTimersByTimeAsync(12_000);
    expect(calls()).toBe(4);
    expect(state.error.value).toBe('The compute host is restarting');
    await vi.advanceTimersByTimeAsync(11_999);
    expect(calls()).toBe(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls()).toBe(5);
    expect(state.error.value).toBeNull();
    expect(state.latest.value?.available).toBe(true);
    // Back to the normal pace.
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(calls()).toBe(6);
  });

  it('keeps the last minute of readings', async () => {
    const { state } = mountPanel(ref('cuda:0'));
    await vi.advanceTimersByTimeAsync(90_000);
    const history = state.history.value;
    const newest = history.at(-1)?.timestamp ?? 0;
    expect(history[0]?.timestamp).toBeGreaterThanOrEqual(newest - 60_000);
    expect(history.length).toBe(41);
  });
});
