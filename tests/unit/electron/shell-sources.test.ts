// What the desktop shell's sources never do (Electron's checklist items that are about code that must not exist):
// open anything with shell.openExternal, load remote or file:// content, or load a page other than the app's own;
// and where the one bridge to the page is: a single contextBridge call exposing window.gpuLab, in the preload,
// which alone touches ipcRenderer. Comments are left out, so a comment may name what the code must not do.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const shellDir = fileURLToPath(new URL('../../../main/electron/', import.meta.url));

// The code of each file of main/electron, without its comments.
const sources = new Map(
  readdirSync(shellDir)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => [
      name,
      readFileSync(join(shellDir, name), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|[^:'"`])\/\/.*$/gm, '$1'),
    ]),
);

function filesMatching(pattern: RegExp): string[] {
  return [...sources].filter(([, code]) => pattern.test(code)).map(([name]) => name);
}

describe('the desktop shell', () => {
  it('reads its own files', () => {
    expect([...sources.keys()]).toEqual(expect.arrayContaining(['main.ts', 'window.ts', 'preload.ts', 'ipc-api.ts']));
  });

  it('never opens anything outside the app: no shell module, no openExternal, no openPath', () => {
    expect(filesMatching(/\bshell\b|openExternal|openPath|showItemInFolder/)).toEqual([]);
  });

  it('loads no remote or file:// content, and no page but the app\'s own', () => {
    expect(filesMatching(/https?:\/\/|file:\/\/|loadFile\(|BrowserView|WebContentsView|webviewTag:\s*true/)).toEqual([]);
    const loads = [...sources].flatMap(([name, code]) => [...code.matchAll(/\.loadURL\(([^)]*)\)/g)].map((m) => `${name}: ${m[1] ?? ''}`));
    expect(loads).toEqual(['main.ts: APP_INDEX_URL']);
  });

  it('bridges to the page once, in the preload, which alone touches ipcRenderer', () => {
    expect(filesMatching(/exposeInMainWorld/)).toEqual(['preload.ts']);
    expect(sources.get('preload.ts')?.match(/exposeInMainWorld\(\s*'(\w+)'/)?.[1]).toBe('gpuLab');
    expect(sources.get('preload.ts')?.match(/exposeInMainWorld/g)).toHaveLength(1);
    expect(filesMatching(/\bipcRenderer\b/)).toEqual(['preload.ts']);
  });

  it('turns off no web security setting anywhere', () => {
    expect(filesMatching(/webSecurity:\s*false|allowRunningInsecureContent:\s*true|nodeIntegration\w*:\s*true|contextIsolation:\s*false|sandbox:\s*false|experimentalFeatures:\s*true|enableBlinkFeatures/)).toEqual([]);
  });
});
