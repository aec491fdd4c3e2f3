// electron-builder.yml, checked without building: against the JSON schema electron-builder ships for its own
// configuration (the same file it validates with before a build), strictly (no coercion of types), and for the
// decisions of README.md's "Packaging": the installers of each system, the addon unpacked from the asar, the kernels as resources,
// no rebuild of native modules, the fuses hook, the icons.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';

import { labDescriptors } from '../../../main/labs/index.ts';
import { kernelFiles } from '../../../main/sources/kernel-sources.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(import.meta.url);
// electron-builder's own YAML reader.
const yaml = require('js-yaml') as { load(text: string): unknown };

interface BuilderConfig {
  appId?: string;
  productName?: string;
  files?: string[];
  asarUnpack?: string[];
  extraResources?: { from: string; to: string; filter: string[] }[];
  npmRebuild?: boolean;
  afterPack?: string;
  directories?: { output?: string; buildResources?: string };
  linux?: { target?: string[]; icon?: string; executableName?: string };
  mac?: { target?: string[]; icon?: string };
  win?: { target?: string[]; icon?: string };
}

const config = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const schema = JSON.parse(readFileSync(join(dirname(require.resolve('app-builder-lib/package.json')), 'scheme.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true }).compile(schema);

function schemaErrors(candidate: unknown): string[] {
  return validate(candidate) ? [] : (validate.errors ?? []).map((e) => `${e.dataPath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

describe('electron-builder.yml', () => {
  it("matches electron-builder's own schema", () => {
    expect(schemaErrors(config)).toEqual([]);
  });

  it('would be refused with a misspelt option or a value of the wrong type, so the check above can fail', () => {
    expect(schemaErrors({ ...config, npmRebuilt: false })).not.toEqual([]);
    expect(schemaErrors({ ...config, asarUnpack: 3 })).not.toEqual([]);
    expect(schemaErrors({ ...config, linux: { ...config.linux, target: 'AppImage', categry: 'Education' } })).not.toEqual([]);
  });

  it('builds AppImage and deb for Linux, dmg for macOS, nsis for Windows, with an id and a product name', () => {
    expect(config.appId).toBe('org.gpulab.app');
    expect(config.productName).toBe('GPU Lab');
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('packs the addon but unpacks it from the asar, and rebuilds no native module', () => {
    const addon = 'native/build/Release/gpu_lab.node';
    expect(config.files).toContain(addon);
    expect(config.asarUnpack).toContain(addon);
    expect(config.npmRebuild).toBe(false);
  });

  it('ships every kernel source a lab shows as a resource, at the same path under the resources folder', () => {
    for (const file of kernelFiles(labDescriptors())) {
      const entry = config.extraResources?.find((r) => r.from === dirname(file));
      expect(entry, file).toBeDefined();
      expect(entry?.to, file).toBe(entry?.from);
      expect(entry?.filter.some((pattern) => pattern === `*${file.slice(file.lastIndexOf('.'))}`), file).toBe(true);
    }
  });

  it('flips the fuses after packing, and has the icons each system asks for', () => {
    expect(config.afterPack).toBe('./scripts/after-pack.mjs');
    expect(existsSync(join(root, config.afterPack ?? ''))).toBe(true);
    for (const icon of [config.mac?.icon, config.win?.icon, config.linux?.icon]) expect(existsSync(join(root, icon ?? '')), icon).toBe(true);
    expect(existsSync(join(root, config.linux?.icon ?? '', '256x256.png'))).toBe(true);
  });
});
