// What only the desktop app offers the page: its settings, today the Python interpreter the peers run on. Not part
// of the contract (contract/index.ts), which both shells serve: serve mode has no such method and no such route, so
// a token holder in a browser cannot make the server run a program of their choosing. The Electron main answers
// these on IPC channels of their own (electron/desktop-ipc.ts) and the preload exposes them as window.gpuLab.desktop;
// the renderer offers the setting where that object exists. No zod here: the renderer and the preload read it.
import type { ApiResponse } from './contract/wire.ts';
import type { PeersReport } from './peer-protocol.ts';

// Where the interpreter in use comes from: the app's setting; GPU_LAB_PYTHON in the environment the program was
// started with (in serve mode also `gpu-lab serve --python`), which wins over the setting; or neither, python3 from
// PATH.
export type PythonSource = NonNullable<PeersReport['source']>;

export interface PythonSetting {
  // The interpreter the compute host is told to use (a path, or python3 for the default).
  interpreter: string;
  source: PythonSource;
  // The app's setting, kept even while GPU_LAB_PYTHON overrides it; null: none.
  setting: string | null;
  // GPU_LAB_PYTHON as the app was started with it; null: unset.
  environment: string | null;
  // Why the setting would not do now (the file is gone, no longer executable): the refusal's reason (the page words
  // it in its language) and its English message; null when it would.
  problem: { reason: string; message: string } | null;
}

// The desktop's methods as main implements them.
export interface DesktopApi {
  pythonSetting(): Promise<PythonSetting>;
  // An absolute path to an executable file; refused while a run is in progress.
  setPython(path: string): Promise<PythonSetting>;
  // The system's file dialog; null when the person cancelled it.
  choosePython(): Promise<PythonSetting | null>;
  // Back to the default (GPU_LAB_PYTHON if the app was started with it, else python3 from PATH).
  resetPython(): Promise<PythonSetting>;
}

export type DesktopMethod = keyof DesktopApi;
export const DESKTOP_METHODS: readonly DesktopMethod[] = ['pythonSetting', 'setPython', 'choosePython', 'resetPython'];

// As the preload exposes them: answers as envelopes, errors as data (an Error crossing the context bridge keeps only
// its message).
export type DesktopPreloadApi = {
  [M in DesktopMethod]: (...args: Parameters<DesktopApi[M]>) => Promise<ApiResponse<Awaited<ReturnType<DesktopApi[M]>>>>;
};

// A channel apart from the contract's (gpu-lab:service.method), so that no contract name can reach one.
export const DESKTOP_IPC_PREFIX = 'gpu-lab-desktop:';

export function desktopChannel(method: DesktopMethod): string {
  return `${DESKTOP_IPC_PREFIX}${method}`;
}
