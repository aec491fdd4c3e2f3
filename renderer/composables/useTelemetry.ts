// Live NVML readings of one CUDA device for the inspector's panel. Each reading asks the compute host, so it is
// polled only while someone can see it: while the caller's scope lives (the panel is mounted), a device is given and
// the page is visible. One reading at a time (a timer is armed when the last one answered), and the last minute is
// kept for the sparklines. A failed reading is reported once and retried less and less often until one succeeds.
import { onScopeDispose, ref, shallowRef, toValue, watch } from 'vue';
import type { MaybeRefOrGetter, Ref, ShallowRef } from 'vue';

import type { Telemetry } from '../../main/common/device-report.ts';
import { errorText } from '../api/index.ts';
import { useDevicesStore } from '../stores/devices.ts';

export interface TelemetryOptions {
  // "cuda:0"; null when there is nothing to read (no NVML, or no GPU inspected).
  device: MaybeRefOrGetter<string | null>;
  // Between readings while they succeed.
  intervalMs?: number;
  // The slowest retry after failures: the interval doubles with each failure up to this.
  maxIntervalMs?: number;
  // How far back `history` reaches, from the newest reading's timestamp.
  windowMs?: number;
}

export interface TelemetryState {
  latest: ShallowRef<Telemetry | null>;
  // Oldest first, within windowMs of the newest; replaced, never mutated.
  history: ShallowRef<Telemetry[]>;
  // The first failure's text, until a reading succeeds again.
  error: Ref<string | null>;
  // Whether a reading is scheduled or in flight.
  polling: Ref<boolean>;
}

export const TELEMETRY_INTERVAL_MS = 1500;

function useDocumentVisible(): Ref<boolean> {
  const visible = ref(!document.hidden);
  const update = (): void => {
    visible.value = !document.hidden;
  };
  document.addEventListener('visibilitychange', update);
  onScopeDispose(() => document.removeEventListener('visibilitychange', update));
  return visible;
}

export function useTelemetry(options: TelemetryOptions): TelemetryState {
  const intervalMs = options.intervalMs ?? TELEMETRY_INTERVAL_MS;
  const maxIntervalMs = options.maxIntervalMs ?? 15_000;
  const windowMs = options.windowMs ?? 60_000;
  const latest = shallowRef<Telemetry | null>(null);
  const history = shallowRef<Telemetry[]>([]);
  const error = ref<string | null>(null);
  const polling = ref(false);
  const visible = useDocumentVisible();
  const devices = useDevicesStore();

  let timer: ReturnType<typeof setTimeout> | undefined;
  // Bumped on every stop, so that an answer to a reading asked before it is dropped (another device, a hidden page).
  let generation = 0;
  let failures = 0;

  function stop(): void {
    generation++;
    clearTimeout(timer);
    timer = undefined;
    polling.value = false;
  }

  function keep(reading: Telemetry): void {
    latest.value = reading;
    const since = reading.timestamp - windowMs;
    history.value = [...history.value.filter((r) => r.timestamp >= since), reading];
  }

  async function read(device: string, mine: number): Promise<void> {
    let nextMs = intervalMs;
    try {
      const reading = await devices.readTelemetry(device);
      if (mine !== generation) return;
      keep(reading);
      failures = 0;
      error.value = null;
      // Without NVML nothing will change soon; ask now and then in case it was a passing state.
      if (!reading.available) nextMs = maxIntervalMs;
    } catch (err) {
      if (mine !== generation) return;
      failures++;
      error.value ??= errorText(err);
      nextMs = Math.min(intervalMs * 2 ** failures, maxIntervalMs);
    }
    timer = setTimeout(() => void read(device, mine), nextMs);
  }

  watch(
    [() => toValue(options.device), visible],
    ([device, isVisible], previous) => {
      stop();
      if (previous && previous[0] !== device) {
        latest.value = null;
        history.value = [];
        error.value = null;
        failures = 0;
      }
      if (device === null || !isVisible) return;
      polling.value = true;
      void read(device, generation);
    },
    { immediate: true },
  );
  onScopeDispose(stop);

  return { latest, history, error, polling };
}
