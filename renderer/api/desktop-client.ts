// The desktop app's own methods (window.gpuLab.desktop, common/desktop-api.ts) as the page calls them: answers
// unwrapped into values, refusals into ApiErrors, as the contract's client does.
import type { DesktopApi, DesktopPreloadApi } from '../../main/common/desktop-api.ts';
import type { ApiResponse } from '../../main/common/contract/wire.ts';
import { ApiError } from './api-error.ts';

function unwrap<T>(response: ApiResponse<T>): T {
  if (response.ok) return response.value;
  throw new ApiError(response.error);
}

export function desktopClient(bridge: DesktopPreloadApi): DesktopApi {
  return {
    pythonSetting: () => bridge.pythonSetting().then(unwrap),
    setPython: (path) => bridge.setPython(path).then(unwrap),
    choosePython: () => bridge.choosePython().then(unwrap),
    resetPython: () => bridge.resetPython().then(unwrap),
  };
}
