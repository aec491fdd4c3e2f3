// The installed app started as the gpu-lab command (main/cli/installed.ts reads its arguments): no window, no
// single-instance lock (a command runs beside the open app, as `gpu-lab` from npm does), the command's output on this
// process's stdout and stderr and its exit code as the app's. Its compute host is a utility process, as the window's
// is: the fuses forbid starting this binary as Node, which is how the command would fork one.
import { app, utilityProcess } from 'electron';

import { installedSelf, takeBackStopSignals } from '../cli/installed.ts';
import { processIo, runCli } from '../cli/main.ts';
import { appResources } from './app-resources.ts';
import { utilityLauncher } from './utility-launcher.ts';

export function startCli(args: string[]): void {
  // Nothing is drawn: Chromium's GPU process stays off the GPUs the labs measure.
  app.disableHardwareAcceleration();
  const resources = appResources(app.isPackaged, process.resourcesPath);
  const launcher = utilityLauncher(utilityProcess, resources.computeHostEnv);
  // A utility process can only be started once the app is ready; Electron's own signal handlers are in place by then.
  void app
    .whenReady()
    .then(() => {
      takeBackStopSignals();
      const self = installedSelf(app.isPackaged, process.resourcesPath);
      return runCli(args, processIo(), process.env, { launcher, ...(self ? { self } : {}) });
    })
    .then(
      (code) => app.exit(code),
      (err: unknown) => {
        console.error(err);
        app.exit(1);
      },
    );
}
