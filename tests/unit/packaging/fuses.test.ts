// The afterPack hook's Electron fuses: the settings as data (each one the security checklist asks for), the binary
// it writes them into on each system, and the hook run on a stand-in binary that carries Electron's fuse wire with
// Electron's defaults, read back with @electron/fuses. What only a real Electron binary can show (that it then
// refuses ELECTRON_RUN_AS_NODE, NODE_OPTIONS, --inspect and a loose app folder) is in SECURITY.md.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { FuseState, FuseV1Options, FuseVersion, getCurrentFuseWire } from '@electron/fuses';
import type { FuseConfig } from '@electron/fuses';
import { describe, expect, it } from 'vitest';

interface HookContext {
  appOutDir: string;
  electronPlatformName: string;
  packager: { executableName: string; appInfo: { productFilename: string } };
}

interface AfterPackModule {
  FUSES: FuseConfig;
  electronBinaryPath(context: HookContext): string;
  default(context: HookContext): Promise<void>;
}

interface PackageDirModule {
  makeStandInElectron(dir: string, version: string): string;
}

const load = async <T>(script: string): Promise<T> => (await import(new URL(`../../../scripts/${script}`, import.meta.url).href)) as T;
const hook = await load<AfterPackModule>('after-pack.mjs');
const { makeStandInElectron } = await load<PackageDirModule>('package-dir.mjs');

const context = (electronPlatformName: string, appOutDir = '/out/app'): HookContext => ({
  appOutDir,
  electronPlatformName,
  packager: { executableName: 'gpu-lab', appInfo: { productFilename: 'GPU Lab' } },
});

describe('Electron fuses', () => {
  it('turns off running as Node, NODE_OPTIONS, inspect arguments and file:// privileges; loads the app only from the asar; encrypts cookies', () => {
    expect(hook.FUSES).toEqual({
      version: FuseVersion.V1,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    });
  });

  it("writes them into each system's Electron binary", () => {
    expect(hook.electronBinaryPath(context('linux'))).toBe('/out/app/gpu-lab');
    expect(hook.electronBinaryPath(context('win32'))).toBe('/out/app/GPU Lab.exe');
    expect(hook.electronBinaryPath(context('darwin'))).toBe('/out/app/GPU Lab.app');
  });

  it("flips the wire of a binary that carries Electron's defaults, and leaves the fuses it does not name alone", async () => {
    const dir = makeStandInElectron(mkdtempSync(join(tmpdir(), 'gpu-lab-fuses-')), '45.4.1');
    const binary = join(dir, 'electron');
    const before = await getCurrentFuseWire(binary);
    expect(before[FuseV1Options.RunAsNode]).toBe(FuseState.ENABLE);
    await hook.default({ ...context('linux', dir), packager: { executableName: 'electron', appInfo: { productFilename: 'GPU Lab' } } });
    const after = await getCurrentFuseWire(binary);
    expect(after[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(after[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
    expect(after[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(after[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(after[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(after[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
    for (const untouched of [FuseV1Options.EnableEmbeddedAsarIntegrityValidation, FuseV1Options.LoadBrowserProcessSpecificV8Snapshot, FuseV1Options.WasmTrapHandlers]) {
      expect(after[untouched], FuseV1Options[untouched]).toBe(before[untouched]);
    }
  });
});
