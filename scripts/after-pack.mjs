// electron-builder's afterPack hook (electron-builder.yml): Electron's fuses flipped in the packaged binary, before
// it is signed and wrapped into an installer. Fuses are switches compiled into the Electron executable that no
// command-line flag or environment variable can turn back, so a packaged GPU Lab cannot be driven as a plain
// Node.js or debugged into by whoever starts it (https://www.electronjs.org/docs/latest/tutorial/fuses).
import { join } from 'node:path';

import { FuseV1Options, FuseVersion, flipFuses } from '@electron/fuses';

// Every fuse this app sets, with the reason. A fuse not named here keeps Electron's default.
// EnableEmbeddedAsarIntegrityValidation is left off: Electron checks app.asar against the hash electron-builder embeds
// only on macOS and Windows, and this app is packaged for Linux only (electron-builder.yml). Turn it on with the mac
// and win targets when they come back.
export const FUSES = {
  version: FuseVersion.V1,
  // ELECTRON_RUN_AS_NODE would turn the signed app into a Node.js that runs any script it is given.
  [FuseV1Options.RunAsNode]: false,
  // Cookies the app's session writes to disk are encrypted with a key from the OS keychain.
  [FuseV1Options.EnableCookieEncryption]: true,
  // NODE_OPTIONS could preload code (--require) into the main process.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  // --inspect and friends would open a debugger port onto the main process, which holds the run store.
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // The app's code is read from app.asar only, never from a loose resources/app folder someone drops beside it.
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  // The app never loads file:// pages (it serves itself over app://), so file:// needs none of its old privileges.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
};

// Where the fuse wire sits for the platform being packaged; @electron/fuses finds the framework inside a .app.
export function electronBinaryPath(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') return join(appOutDir, `${packager.appInfo.productFilename}.app`);
  if (electronPlatformName === 'win32') return join(appOutDir, `${packager.appInfo.productFilename}.exe`);
  return join(appOutDir, packager.executableName);
}

export default async function afterPack(context) {
  const binary = electronBinaryPath(context);
  // Writing into a macOS binary breaks its ad-hoc signature, which arm64 Macs refuse to run: it is redone here and
  // replaced by the real signature when one is configured.
  const isMac = context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas';
  await flipFuses(binary, { ...FUSES, resetAdHocDarwinSignature: isMac });
  console.log(`  • fuses set in ${binary}`);
}
