// The Electron app itself, driven by Playwright: one window on app://gpu-lab titled GPU Lab, the labs catalog
// rendered from the lab host over IPC, and a page with window.gpuLab but without Node. Playwright project
// { name: 'electron', testDir: 'tests/e2e-electron' }. Skipped, saying why, where Electron cannot start: its binary
// is downloaded on first launch, and these build machines have no network for it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { _electron as electron, expect, test } from '@playwright/test';

const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);

// The file require('electron') names, found the way the package's index.js finds it but without running that file,
// which downloads a missing binary (and fails slowly without network).
function electronBinary(): string | null {
  try {
    const packageDir = dirname(require.resolve('electron/package.json'));
    const binaryName = readFileSync(join(packageDir, 'path.txt'), 'utf8');
    const binary = join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(packageDir, 'dist'), binaryName);
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
const binaryExists = binary !== null;
const built = ['dist/main/electron/main.js', 'dist/main/electron/preload.cjs', 'dist/web/index.html'].every((f) => existsSync(join(root, f)));
const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);

test.skip(!binaryExists, 'Electron binary not downloaded: node_modules/electron has no binary, and launching it would try to download one');
test.skip(!built, 'The app is not built: run `npm run build` (main, preload and renderer)');
test.skip(!hasDisplay, 'No display to open a window on (run under xvfb-run)');

test('opens one window on app://gpu-lab with the labs catalog, over IPC, without Node in the page', async () => {
  // Runs stored in a folder of this test's own, not the user's.
  const userData = mkdtempSync(join(tmpdir(), 'gpu-lab-electron-e2e-'));
  const app = await electron.launch({ executablePath: binary ?? undefined, args: [`--user-data-dir=${userData}`, root] });
  try {
    const page = await app.firstWindow();
    await expect(page).toHaveTitle(/GPU Lab/);
    await expect(page).toHaveURL(/^app:\/\/gpu-lab\/index\.html#\/labs$/);
    expect(app.windows()).toHaveLength(1);

    const answer = await page.evaluate(() => window.gpuLab?.labs.listLabs());
    const titles = answer?.ok ? answer.value.map((lab) => lab.title) : [];
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) await expect(page.getByText(title).first()).toBeVisible();

    const pageWorld = await page.evaluate(() => ({
      services: Object.keys(window.gpuLab ?? {}).sort(),
      require: typeof (globalThis as Record<string, unknown>).require,
      process: typeof (globalThis as Record<string, unknown>).process,
    }));
    // The contract's services, and the desktop app's own methods (its settings), which serve mode has not.
    expect(pageWorld).toEqual({ services: ['desktop', 'devices', 'labs', 'playground', 'reports', 'runs'], require: 'undefined', process: 'undefined' });
    const desktop = await page.evaluate(() => Object.keys(window.gpuLab?.desktop ?? {}).sort());
    expect(desktop).toEqual(['choosePython', 'pythonSetting', 'resetPython', 'setPython']);
  } finally {
    await app.close();
    rmSync(userData, { recursive: true, force: true });
  }
});
