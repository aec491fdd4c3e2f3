// The renderer's API at its boundary (renderer/api/index.ts), faked for the device inspector's tests: the devices
// service as mock functions, the rest of the module as it is. Each test file mocks the module with `apiModule`.
import { vi } from 'vitest';

import type { DeviceReport, Telemetry } from '../../../../main/common/device-report.ts';
import type { DeviceList } from '../../../../main/common/devices.ts';
import type { PeersReport } from '../../../../main/common/peer-protocol.ts';
import type { DesktopApi } from '../../../../main/common/desktop-api.ts';
import { ApiError, errorText } from '../../../../renderer/api/api-error.ts';

export const devicesApi = {
  listDevices: vi.fn<() => Promise<DeviceList>>(),
  inspectDevices: vi.fn<() => Promise<DeviceReport>>(),
  readTelemetry: vi.fn<(device: string) => Promise<Telemetry>>(),
  // Unset: the Python panel says the call failed, as without a compute host.
  inspectPython: vi.fn<() => Promise<PeersReport>>(),
};

// The desktop app's own methods (window.gpuLab.desktop), present only where a test says the page runs in the app:
// `shell.desktop = true`; serve mode (the default) has none.
export const desktopApi = {
  pythonSetting: vi.fn<DesktopApi['pythonSetting']>(),
  setPython: vi.fn<DesktopApi['setPython']>(),
  choosePython: vi.fn<DesktopApi['choosePython']>(),
  resetPython: vi.fn<DesktopApi['resetPython']>(),
};
export const shell = { desktop: false };

export function apiModule() {
  return {
    api: { devices: devicesApi },
    get desktop(): DesktopApi | null {
      return shell.desktop ? desktopApi : null;
    },
    ApiError,
    errorText,
  };
}
