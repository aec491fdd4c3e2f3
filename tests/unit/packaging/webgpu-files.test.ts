// Each package carries its own platform's dawn.node alone: electron-builder.yml's file filters, read by electron-builder's
// own loader and applied with its own matcher to the real files of node_modules/webgpu, as it filters a node module
// when it packs (app-builder-lib's getNodeModuleFileMatcher, its macros expanded for each platform and architecture
// the config declares), without packaging anything. And the kept dawn.node is unpacked from the asar, to be loaded, and
// the filter leaves the app's own files as the rest of the config has them (a platform's `files` beside the global ones
// would turn those into a file set of their own, and source maps and tests would be packed).
import { readdirSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(import.meta.url);
const builderLibDir = dirname(createRequire(require.resolve('electron-builder')).resolve('app-builder-lib/package.json'));
const fromBuilderLib = createRequire(join(builderLibDir, 'package.json'));

type Filter = (file: string, stat: Stats & { moduleFullFilePath?: string }) => boolean;
interface Matcher {
  patterns: string[];
  createFilter(): Filter;
}
interface FileMatcherModule {
  FileMatcher: new (from: string, to: string, expand: (pattern: string) => string, patterns?: string[]) => Matcher;
  getNodeModuleFileMatcher(appDir: string, destination: string, expand: (pattern: string) => string, platformOptions: object, packager: object): Matcher;
  getMainFileMatchers(appDir: string, destination: string, expand: (pattern: string) => string, platformOptions: object, packager: object, outDir: string, isElectronCompile: boolean): Matcher[];
}
type PlatformKey = 'linux' | 'mac' | 'win';
interface Config {
  files?: unknown[];
  asarUnpack?: string[];
  linux?: { files?: unknown[] };
  mac?: { files?: unknown[] };
  win?: { files?: unknown[] };
}

const { FileMatcher, getMainFileMatchers, getNodeModuleFileMatcher } = fromBuilderLib('./out/fileMatcher.js') as FileMatcherModule;
const { expandMacro } = fromBuilderLib('./out/util/macroExpander.js') as { expandMacro(pattern: string, arch: string | null, appInfo: object, extra: object): string };
const { getConfig } = fromBuilderLib('./out/util/config/config.js') as { getConfig(projectDir: string): Promise<Config> };
const minimatch = (fromBuilderLib('minimatch') as { minimatch: (path: string, pattern: string, options: object) => boolean }).minimatch;

const config = await getConfig(root);
const webgpu = join(root, 'node_modules', 'webgpu');
// Node's name for each of electron-builder's platforms, and the architectures dawn.node is shipped for.
const NODE_PLATFORM: Record<PlatformKey, string> = { linux: 'linux', mac: 'darwin', win: 'win32' };
const ARCHES: Record<PlatformKey, string[]> = { linux: ['x64', 'arm64'], mac: ['universal'], win: ['x64', 'arm64'] };

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? [path, ...walk(path)] : [path];
  });
}

// The files of node_modules/webgpu electron-builder would copy for `platform` and `arch`, as paths in the app.
function packed(platform: PlatformKey, arch: string): string[] {
  const expand = (pattern: string): string => expandMacro(pattern, arch, {}, { os: platform, '/*': '{,/**/*}' });
  const modules = getNodeModuleFileMatcher(root, '/app', expand, config[platform] ?? {}, { config, debugLogger: { isEnabled: false } });
  const filter = new FileMatcher(webgpu, '/app/node_modules/webgpu', expand, modules.patterns).createFilter();
  // As NodeModuleCopyHelper walks a module: a folder left out is never entered.
  const kept: string[] = [];
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = Object.assign(statSync(path), { moduleFullFilePath: join('node_modules', 'webgpu', relative(webgpu, path)) });
      if (!filter(path, stat)) continue;
      if (stat.isDirectory()) visit(path);
      else kept.push(stat.moduleFullFilePath);
    }
  };
  visit(webgpu);
  return kept;
}

const declared = (['linux', 'mac', 'win'] as const).filter((p) => config[p] !== undefined);
const targets = declared.flatMap((platform) => ARCHES[platform].map((arch) => [platform, arch] as const));

describe('the dawn.node each package carries', () => {
  it('is installed for more than one platform here, so the filters below have something to leave out', () => {
    const shipped = walk(join(webgpu, 'dist')).filter((f) => f.endsWith('dawn.node'));
    expect(shipped.length).toBeGreaterThan(1);
    expect(declared).toContain('linux');
  });

  it.each(targets)('%s %s: its own platform’s dawn.node and no other, with the rest of the package', (platform, arch) => {
    const files = packed(platform, arch);
    const own = `${NODE_PLATFORM[platform]}-${platform === 'mac' ? 'universal' : arch}`;
    const bindings = files.filter((f) => f.startsWith('node_modules/webgpu/dist/'));
    expect(bindings).toContain(`node_modules/webgpu/dist/${own}/dawn.node`);
    expect(bindings.filter((f) => !f.startsWith(`node_modules/webgpu/dist/${own}/`))).toEqual([]);
    // What loads it stays.
    expect(files).toContain('node_modules/webgpu/index.js');
    expect(files).toContain('node_modules/webgpu/package.json');
  });

  it('would carry every platform’s without the filter, so the test above can fail', () => {
    // electron-builder's loader keeps `files` as file sets ({ filter: [...] }): the filter dropped from each.
    const drop = (f: unknown): unknown => (typeof f === 'object' && f !== null && 'filter' in f && Array.isArray(f.filter) ? { ...f, filter: f.filter.filter((p: unknown) => typeof p !== 'string' || !p.includes('node_modules/webgpu')) } : f);
    const unfiltered = { ...config, files: config.files?.map(drop) };
    expect(JSON.stringify(unfiltered.files)).not.toContain('node_modules/webgpu');
    const expand = (pattern: string): string => expandMacro(pattern, 'x64', {}, { os: 'linux' });
    const modules = getNodeModuleFileMatcher(root, '/app', expand, {}, { config: unfiltered, debugLogger: { isEnabled: false } });
    const keep = modules.patterns.length === 0 ? (): boolean => true : new FileMatcher(webgpu, '/app/node_modules/webgpu', expand, modules.patterns).createFilter();
    const win = join(webgpu, 'dist', 'win32-x64', 'dawn.node');
    expect(keep(win, Object.assign(statSync(win), { moduleFullFilePath: 'node_modules/webgpu/dist/win32-x64/dawn.node' }))).toBe(true);
  });

  it.each(targets)('%s %s: leaves the app’s own files as the rest of the config has them', (platform, arch) => {
    const expand = (pattern: string): string => expandMacro(pattern, arch, {}, { os: platform, '/*': '{,/**/*}' });
    const packager = { info: { config, projectDir: root, buildResourcesDir: 'build-resources', isPrepackedAppAsar: false, debugLogger: { isEnabled: false } } };
    const [main, ...sets] = getMainFileMatchers(root, '/app', expand, config[platform] ?? {}, packager, join(root, 'out'), false);
    expect(sets).toEqual([]);
    const keep = main?.createFilter();
    if (!keep) throw new Error('no file matcher');
    const kept = (path: string): boolean => keep(join(root, path), Object.assign(statSync(join(root, 'package.json')), { isDirectory: () => false }));
    expect(kept('dist/main/app/lab-host.js')).toBe(true);
    expect(kept('dist/main/app/lab-host.js.map')).toBe(false);
    expect(kept('tests/unit/packaging/webgpu-files.test.ts')).toBe(false);
  });

  it('is unpacked from the asar, where the compute host can load it', () => {
    expect(config.asarUnpack?.some((pattern) => minimatch('node_modules/webgpu/dist/linux-x64/dawn.node', pattern, { dot: true }))).toBe(true);
  });
});
