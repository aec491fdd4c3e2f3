// The desktop app's settings as the page reaches them (common/desktop-api.ts), and what they make of the compute
// host's environment. The interpreter the peers run on is, in order: GPU_LAB_PYTHON as the app was started with it
// (the person at the machine said so for this session; the page says it wins), else the app's setting, else python3
// from PATH. A change is checked, saved, then takes effect for what is asked next: the compute host is renewed, so
// the next probe or run starts one (and its Python worker) with the new interpreter. While a run is in progress a
// change is refused: every peer series of a run uses the interpreter its record names. Plain Node: the Electron
// main wires it (electron/main.ts, desktop-ipc.ts), the tests drive it with real files.
import type { DesktopApi, PythonSetting, PythonSource } from '../common/desktop-api.ts';
import { GpuLabError } from '../common/errors.ts';
import { DEFAULT_PYTHON, PYTHON_ENV } from '../common/peer-protocol.ts';
import { pythonPathProblem } from './settings-store.ts';
import type { SettingsStore } from './settings-store.ts';

type Env = Record<string, string | undefined>;

// GPU_LAB_PYTHON as named in `env` (empty counts as unset, as the compute host reads it).
function namedInEnv(env: Env): string | null {
  return env[PYTHON_ENV] || null;
}

function settingProblem(setting: string | null): PythonSetting['problem'] {
  const problem = setting === null ? null : pythonPathProblem(setting);
  return problem ? { reason: String(problem.details?.reason ?? ''), message: problem.message } : null;
}

// Which interpreter a compute host started now would use, and why.
export function pythonChoice(setting: string | null, launchEnv: Env): PythonSetting {
  const environment = namedInEnv(launchEnv);
  const source: PythonSource = environment ? 'environment' : setting ? 'settings' : 'default';
  return {
    interpreter: environment ?? setting ?? DEFAULT_PYTHON,
    source,
    setting,
    environment,
    problem: settingProblem(setting),
  };
}

// What the app adds to the compute host's environment for the setting: GPU_LAB_PYTHON where the app was not
// started with one (which the host inherits and which wins), nothing otherwise.
export function pythonHostEnv(setting: string | null, launchEnv: Env): Record<string, string> {
  return setting && !namedInEnv(launchEnv) ? { [PYTHON_ENV]: setting } : {};
}

export interface DesktopSettingsOptions {
  store: SettingsStore;
  // The environment the app was started with (process.env).
  launchEnv: Env;
  // Whether a run is being started, queued or running (the lab host's runs.busy), and when none is (runs.whenIdle).
  runsBusy: () => boolean;
  runsIdle: () => Promise<void>;
  // Makes the next request start a fresh compute host (the lab host's supervisor.renew()).
  renewHost: () => void;
  // The system's file dialog: the file chosen, or null when cancelled.
  choose: (current: string | null) => Promise<string | null>;
  log?: (line: string) => void;
}

export interface DesktopSettings extends DesktopApi {
  // Added to every compute host's environment as it is started.
  computeHostEnv(): Record<string, string>;
  // Where the interpreter of the next compute host comes from (the Python panel says it).
  pythonSource(): PythonSource;
}

export function createDesktopSettings(options: DesktopSettingsOptions): DesktopSettings {
  const { store, launchEnv, runsBusy, runsIdle, renewHost, choose } = options;
  const log = options.log ?? (() => undefined);
  const current = (): PythonSetting => pythonChoice(store.get().python, launchEnv);

  // The interpreter the compute host in use was given (each host reads the setting as it starts): a change is
  // compared with it, not with the file, so that a second change made before the first one's renewal ends (set, then
  // reset at once) still leaves the host on what the file says. Changes are made one at a time.
  let hostInterpreter = current().interpreter;
  // The change in progress, if any: the next one starts after it; one made while none is starts at once.
  let inProgress: Promise<unknown> | null = null;
  const change = (path: string | null): Promise<PythonSetting> => {
    const next = inProgress ? inProgress.then(() => changeNow(path)) : changeNow(path);
    const settled = next.catch(() => undefined);
    inProgress = settled;
    void settled.then(() => {
      if (inProgress === settled) inProgress = null;
    });
    return next;
  };
  const changeNow = async (path: string | null): Promise<PythonSetting> => {
    const before = hostInterpreter;
    // Refused only where the interpreter in use would change (not while GPU_LAB_PYTHON wins, nor for the same path).
    if (pythonChoice(path, launchEnv).interpreter !== before && runsBusy()) {
      throw new GpuLabError('DEVICE_BUSY', 'A run is in progress: the Python interpreter can be changed once it has ended (every peer series of a run uses the interpreter its record names)', {
        field: 'python',
        reason: 'run-in-progress',
      });
    }
    await store.setPython(path);
    const after = current();
    log(`gpu-lab: the Python interpreter setting is now ${path ?? 'the default'}${after.source === 'environment' ? ` (not used: GPU_LAB_PYTHON=${after.environment ?? ''} wins)` : ''}`);
    // A host started with the old interpreter would go on using it: the next request gets a fresh one. A run begun
    // while the file was written keeps the host it asked what the interpreter offers; the host is renewed after it.
    if (after.interpreter !== before) {
      hostInterpreter = after.interpreter;
      if (runsBusy()) void runsIdle().then(renewHost, renewHost);
      else renewHost();
    }
    return after;
  };

  return {
    async pythonSetting() {
      return current();
    },
    setPython(path) {
      // Checked here too: the page's argument crossed IPC and may be anything.
      const problem = pythonPathProblem(path);
      if (problem) return Promise.reject(problem);
      return change(path);
    },
    async choosePython() {
      const chosen = await choose(store.get().python);
      return chosen === null ? null : this.setPython(chosen);
    },
    resetPython() {
      return change(null);
    },
    computeHostEnv() {
      return pythonHostEnv(store.get().python, launchEnv);
    },
    pythonSource() {
      return current().source;
    },
  };
}
