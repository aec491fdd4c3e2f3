// electron-builder.yml, checked without building, with electron-builder's own code: read by its own loader and passed
// through its own validation (the gate every build goes through), and checked again against the JSON schema it ships
// with the ajv it validates with, but strictly (electron-builder's ajv coerces types, so `asar: "false"` would pass
// there). Then the decisions of README.md's "Packaging": the Linux packages it names and no others, the addon
// unpacked from the asar, the kernels as resources, no rebuild of native modules, the fuses hook, the icons, the deb's
// metadata. What electron-builder makes of it (file names, .desktop entries, fpm's arguments) is package-dir.test.ts's.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { labDescriptors } from '../../../main/labs/index.ts';
import { kernelFiles } from '../../../main/sources/kernel-sources.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

// app-builder-lib is electron-builder's own core, and ajv and js-yaml are its dependencies: resolved from its folder,
// they are the very copies electron-builder runs (ajv 8, where eslint would hand this test ajv 6).
const require = createRequire(import.meta.url);
const builderLibDir = dirname(createRequire(require.resolve('electron-builder')).resolve('app-builder-lib/package.json'));
const fromBuilderLib = createRequire(join(builderLibDir, 'package.json'));

interface ErrorObject {
  instancePath: string;
  message?: string;
  params: unknown;
}
interface Validate {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}
interface AjvClass {
  new (options: object): { compile(schema: object): Validate };
}
interface BuilderConfigModule {
  getConfig(projectDir: string): Promise<object>;
  validateConfiguration(config: object, debugLogger: { isEnabled: boolean; add(key: string, value: unknown): void }): Promise<void>;
}

const Ajv = (fromBuilderLib('ajv') as { default: AjvClass }).default;
const yaml = fromBuilderLib('js-yaml') as { load(text: string): unknown };
const builderConfig = fromBuilderLib('./out/util/config/config.js') as BuilderConfigModule;

interface BuilderConfig {
  appId?: string;
  productName?: string;
  files?: string[];
  asarUnpack?: string[];
  extraResources?: { from: string; to: string; filter: string[] }[];
  npmRebuild?: boolean;
  afterPack?: string;
  directories?: { output?: string; buildResources?: string };
  linux?: { target?: string[]; icon?: string; executableName?: string; maintainer?: string; category?: string; syncDesktopName?: boolean };
  deb?: { depends?: string[]; recommends?: string[] };
  appImage?: { artifactName?: string };
}

const config = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const schema = JSON.parse(readFileSync(join(builderLibDir, 'scheme.json'), 'utf8')) as object;
// strict: false as electron-builder has it: its schema uses ajv-keywords' `typeof`, which plain ajv does not know.
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; homepage?: string; author?: { name?: string; email?: string }; desktopName?: string };

function schemaErrors(candidate: unknown): string[] {
  return validate(candidate) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

// README's "Packaging" section, up to the next section.
function readmeSection(title: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `README has a "${title}" section`).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe('electron-builder.yml', () => {
  it('is read and accepted by electron-builder itself', async () => {
    const loaded = await builderConfig.getConfig(root);
    await expect(builderConfig.validateConfiguration(loaded, { isEnabled: false, add() {} })).resolves.toBeUndefined();
    await expect(builderConfig.validateConfiguration({ ...loaded, npmRebuilt: false }, { isEnabled: false, add() {} })).rejects.toThrow(/npmRebuilt/);
  });

  it("matches electron-builder's own schema with no type coerced", () => {
    expect(schemaErrors(config)).toEqual([]);
  });

  it('would be refused with a misspelt option or a value of the wrong type, so the check above can fail', () => {
    expect(schemaErrors({ ...config, npmRebuilt: false })).not.toEqual([]);
    expect(schemaErrors({ ...config, asarUnpack: 3 })).not.toEqual([]);
    expect(schemaErrors({ ...config, npmRebuild: 'false' })).not.toEqual([]);
    expect(schemaErrors({ ...config, linux: { ...config.linux, target: 'AppImage', categry: 'Education' } })).not.toEqual([]);
  });

  it("declares the Linux packages README's Packaging section names, with an id and a product name", () => {
    expect(config.appId).toBe('org.gpulab.app');
    expect(config.productName).toBe('GPU Lab');
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    const packaging = readmeSection('Packaging');
    expect(packaging).toContain('AppImage');
    expect(packaging).toContain('.deb');
    // An installer README names must be one the config builds: the other systems' come back with their targets.
    const declared = new Set((config.linux?.target ?? []).map((t) => t.toLowerCase()));
    for (const [format, pattern] of Object.entries({ dmg: /\.dmg\b|\bdmg\b/i, nsis: /\bNSIS\b|\.exe\b/, msi: /\.msi\b/, snap: /\bsnap\b/i, rpm: /\.rpm\b|\brpm\b/, flatpak: /flatpak/i })) {
      if (!declared.has(format)) expect(packaging, `README's Packaging names ${format}, which the config does not build`).not.toMatch(pattern);
    }
  });

  it('packs the addon but unpacks it from the asar, and rebuilds no native module', () => {
    const addon = 'native/build/Release/gpu_lab.node';
    expect(config.files).toContain(addon);
    expect(config.asarUnpack).toContain(addon);
    expect(config.npmRebuild).toBe(false);
  });

  it('ships every kernel source a lab shows as a resource, at the same path under the resources folder', () => {
    for (const file of kernelFiles(labDescriptors())) {
      const ext = file.slice(file.lastIndexOf('.'));
      // The file's own folder with *.ext, or a folder above it shipped whole with **/*.ext (the Python peers' package).
      const entry = config.extraResources?.find((r) => (r.from === dirname(file) && r.filter.includes(`*${ext}`)) || (file.startsWith(`${r.from}/`) && r.filter.includes(`**/*${ext}`)));
      expect(entry, file).toBeDefined();
      expect(entry?.to, file).toBe(entry?.from);
    }
  });

  it('flips the fuses after packing, and has the icons for the Linux menus', () => {
    expect(config.afterPack).toBe('./scripts/after-pack.mjs');
    expect(existsSync(join(root, config.afterPack ?? ''))).toBe(true);
    for (const size of [16, 32, 48, 64, 128, 256, 512]) expect(existsSync(join(root, config.linux?.icon ?? '', `${size}x${size}.png`)), `${size} px`).toBe(true);
  });

  it("gives the deb what Debian asks of a package: a homepage, a maintainer with an e-mail address, and the desktop file's name", () => {
    expect(packageJson.homepage).toMatch(/^https:\/\/\S+$/);
    expect(config.linux?.maintainer).toMatch(/^[^<>]+ <[^@\s<>]+@[^@\s<>]+\.[a-z]+>$/);
    expect(config.linux?.maintainer).toBe(`GPU Lab maintainers <${packageJson.author?.email ?? ''}>`);
    // Electron names the app's windows after desktopName; the .desktop file carries the same name when synced.
    expect(packageJson.desktopName).toBe(`${config.linux?.executableName ?? ''}.desktop`);
    expect(config.linux?.syncDesktopName).toBe(true);
    // No space in a file name a user types: the AppImage is named after the package, not the product.
    expect(config.appImage?.artifactName).not.toContain('productName');
    expect(config.deb?.recommends).toContain('libopenblas0-pthread');
  });
});
