// The devices of the machine main runs on, the one picked for the labs (remembered), and the inspector's full
// report, fetched when the inspector first needs it; and what main reads of them on each asking: a CUDA device's live
// NVML readings, the Python the peer series run on; and, in the desktop app only, the setting of that Python.
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';

import type { DeviceReport, Telemetry } from '../../main/common/device-report.ts';
import type { PythonSetting } from '../../main/common/desktop-api.ts';
import type { DeviceList, DeviceSummary } from '../../main/common/devices.ts';
import type { PeersReport } from '../../main/common/peer-protocol.ts';
import { api, desktop, errorText } from '../api/index.ts';
import { remembered } from '../composables/remembered.ts';

// A WebGPU adapter that is a program on the CPU (lavapipe, SwiftShader), as the compute host marks it
// (main/host/webgpu/listing.ts): its numbers are the CPU's, not a GPU's.
export const isSoftwareAdapter = (d: DeviceSummary): boolean => d.kind === 'webgpu' && d.details.software === true;

export const useDevicesStore = defineStore('devices', () => {
  const list = shallowRef<DeviceList | null>(null);
  const report = shallowRef<DeviceReport | null>(null);
  const error = ref<string | null>(null);
  const selectedId = remembered<string>('device', '');

  const devices = computed<DeviceSummary[]>(() => list.value?.devices ?? []);
  const cudaDevices = computed(() => devices.value.filter((d) => d.kind === 'cuda'));
  // The picked device if this machine has it, else the first GPU, else the CPU: what a run is started on.
  const selected = computed<DeviceSummary | null>(
    () => devices.value.find((d) => d.id === selectedId.value) ?? cudaDevices.value[0] ?? devices.value[0] ?? null,
  );

  async function load(): Promise<void> {
    try {
      list.value = await api.devices.listDevices();
      error.value = null;
    } catch (err) {
      error.value = errorText(err);
    }
  }

  async function inspect(): Promise<void> {
    try {
      report.value = await api.devices.inspectDevices();
      list.value = report.value.list;
      error.value = null;
    } catch (err) {
      error.value = errorText(err);
    }
  }

  function select(id: string): void {
    selectedId.value = id;
  }

  const readTelemetry = (device: string): Promise<Telemetry> => api.devices.readTelemetry(device);
  const inspectPython = (): Promise<PeersReport> => api.devices.inspectPython();

  // The desktop app's own methods (window.gpuLab.desktop): in a browser the interpreter is the server's
  // (gpu-lab serve --python), never a page's, and each of these answers null. `choosePython`: null where the user
  // closed the dialog without choosing.
  const inDesktopApp = desktop !== null;
  const pythonSetting = (): Promise<PythonSetting | null> => (desktop ? desktop.pythonSetting() : Promise.resolve(null));
  const setPython = (path: string): Promise<PythonSetting | null> => (desktop ? desktop.setPython(path) : Promise.resolve(null));
  const choosePython = (): Promise<PythonSetting | null> => (desktop ? desktop.choosePython() : Promise.resolve(null));
  const resetPython = (): Promise<PythonSetting | null> => (desktop ? desktop.resetPython() : Promise.resolve(null));

  return {
    list,
    report,
    error,
    devices,
    cudaDevices,
    selected,
    selectedId,
    load,
    inspect,
    select,
    readTelemetry,
    inspectPython,
    inDesktopApp,
    pythonSetting,
    setPython,
    choosePython,
    resetPython,
  };
});
