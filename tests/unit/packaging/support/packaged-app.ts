// `npm run package:dir` into a scratch folder, and the resources folder as the packaged main process sees it in
// Electron: app.asar readable as a folder (extracted), the rest (app.asar.unpacked, the kernels, bin/) as packaged.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { extractAll } from '@electron/asar';

export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export interface PackagedApp {
  // linux-unpacked: what the deb installs as /opt/GPU Lab.
  appDir: string;
  resources: string;
  // The resources folder with app.asar extracted, for support/run-*.mjs.
  view: string;
  // Removes it all: a build and its extracted copy weigh some 150 MB.
  remove(): void;
}

export async function packageApp(): Promise<PackagedApp> {
  const output = mkdtempSync(join(tmpdir(), 'gpu-lab-package-dir-'));
  const viewRoot = mkdtempSync(join(tmpdir(), 'gpu-lab-packaged-view-'));
  const remove = (): void => {
    for (const dir of [output, viewRoot]) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await promisify(execFile)(process.execPath, [join(repoRoot, 'scripts', 'package-dir.mjs'), '--output', output], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
    const appDir = join(output, 'linux-unpacked');
    const resources = join(appDir, 'resources');
    const view = join(viewRoot, 'resources');
    mkdirSync(view);
    extractAll(join(resources, 'app.asar'), join(view, 'app.asar'));
    for (const entry of readdirSync(resources)) if (entry !== 'app.asar') symlinkSync(join(resources, entry), join(view, entry));
    return { appDir, resources, view, remove };
  } catch (err) {
    remove();
    throw err;
  }
}
