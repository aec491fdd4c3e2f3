// package.json's dependencies against what the code imports. At run time: every module of the built output that the
// desktop app, its compute host and the CLI load (dist/main with the chart configurations, dist/native, bin/)
// is read for its imports (static, import(), require(), require.resolve()); each package they name must be a
// dependency, installed in the production tree (`npm ls --omit=dev`, which electron-builder packs into app.asar), and
// every dependency must be one of them. The renderer's own bundle (dist/web) imports no package at all: Vite put
// them in it. At build time: every source, test, script and configuration file imports only declared packages, and
// every devDependency is used — imported, run by an npm script, the types of an imported package, or named below.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { codeFiles, importsOf, packageOf } from './support/module-imports.ts';
import type { FileImports } from './support/module-imports.ts';
import { productionPackages } from './support/production-tree.ts';
import type { ProductionTree } from './support/production-tree.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  // Installed where the platform has them (Dawn's bindings for the WebGPU device): run-time dependencies too.
  optionalDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};
const dependencies = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {})];
const devDependencies = Object.keys(pkg.devDependencies);

// Provided by the Electron binary the app runs in, not by node_modules: electron-builder wants the package among the
// devDependencies, where it pins the version packaged.
const PROVIDED_AT_RUN_TIME = ['electron'];

// Imports whose module is named at run time, not in the source, each reviewed: `file:line` → why.
const REVIEWED_DYNAMIC_IMPORTS: Record<string, string> = {
  'dist/native/addon.js': 'the native addon, loaded by the path of the build (or GPU_LAB_ADDON) with require()',
  'bin/gpu-lab.js': 'the compiled CLI, or its source in a checkout that has not been built',
};

// devDependencies that no file imports and no npm script runs by name, each with where it is used.
const USED_BY_NAME: Record<string, { file: string; text: string }> = {
  // Vitest's DOM for the renderer's tests, named as the project's environment.
  'happy-dom': { file: 'vitest.config.ts', text: "environment: 'happy-dom'" },
};

// Folders that hold no source of this repository's own.
const NOT_SOURCES = ['node_modules', 'dist', 'out', 'native/build', 'test-results', 'playwright-report', '.device'];

const packagesOf = (found: FileImports): Map<string, string[]> => {
  const byPackage = new Map<string, string[]>();
  for (const { file, line, specifier } of found.imports) {
    const name = packageOf(specifier);
    if (name) byPackage.set(name, [...(byPackage.get(name) ?? []), `${file}:${line}`]);
  }
  return byPackage;
};

let runTime: FileImports = { imports: [], unresolvable: [] };
let production: ProductionTree = { packages: new Set(), direct: new Map(), problems: [] };

beforeAll(async () => {
  const built = ['dist/main/electron/main.js', 'dist/main/host/host-main.js', 'dist/main/cli/main.js', 'dist/web/index.html'];
  const missing = built.filter((file) => !existsSync(join(root, file)));
  if (missing.length > 0) throw new Error(`The app is not built (${missing.join(', ')}): run \`npm run build:app\` first.`);
  const files = ['dist/main', 'dist/native', 'bin'].flatMap((dir) => codeFiles(join(root, dir)).map((file) => `${dir}/${file}`));
  runTime = importsOf(root, files);
  production = await productionPackages(root);
});

describe('the run-time dependencies', () => {
  it('are read from every module the app, its host and the CLI load', () => {
    const files = new Set(runTime.imports.map((i) => i.file));
    for (const entry of ['dist/main/electron/main.js', 'dist/main/host/host-main.js', 'dist/main/cli/main.js', 'dist/native/addon.js', 'dist/main/reports/chart-image.js']) expect(files, entry).toContain(entry);
  });

  it('are every package the built code imports, declared as a dependency and installed without dev dependencies', () => {
    const imported = packagesOf(runTime);
    const undeclared = [...imported].filter(([name]) => !dependencies.includes(name) && !PROVIDED_AT_RUN_TIME.includes(name));
    expect(undeclared.map(([name, at]) => `${name} (${at.slice(0, 3).join(', ')})`), 'imported at run time but not a dependency').toEqual([]);
    expect(production.problems, 'npm ls --omit=dev').toEqual([]);
    for (const name of imported.keys()) {
      if (PROVIDED_AT_RUN_TIME.includes(name)) continue;
      expect(production.direct.get(name), `${name} in the production tree`).toEqual(expect.any(String));
    }
  });

  it('has no dependency the built code does not import', () => {
    const imported = packagesOf(runTime);
    expect(dependencies.filter((name) => !imported.has(name))).toEqual([]);
    for (const name of PROVIDED_AT_RUN_TIME) {
      expect(dependencies).not.toContain(name);
      expect(devDependencies).toContain(name);
    }
  });

  it('names every module it loads in its source, but for the reviewed ones', () => {
    const unreviewed = runTime.unresolvable.filter((u) => !(u.at.slice(0, u.at.lastIndexOf(':')) in REVIEWED_DYNAMIC_IMPORTS));
    expect(unreviewed).toEqual([]);
  });

  it('are not imported by the renderer bundle, which holds its libraries itself', () => {
    const web = importsOf(root, codeFiles(join(root, 'dist', 'web')).map((file) => `dist/web/${file}`));
    expect(web.imports.length, 'the bundle has its chunks to import').toBeGreaterThan(0);
    expect([...packagesOf(web).keys()]).toEqual([]);
  });
});

describe('the build-time dependencies', () => {
  const everything = importsOf(root, codeFiles(root, NOT_SOURCES));
  const imported = packagesOf(everything);

  it('are every package a source, test, script or configuration file imports', () => {
    const undeclared = [...imported].filter(([name]) => !dependencies.includes(name) && !devDependencies.includes(name));
    expect(undeclared.map(([name, at]) => `${name} (${at.slice(0, 3).join(', ')})`)).toEqual([]);
  });

  it('are each used: imported, run by an npm script, the types of an imported package, or named where they are used', () => {
    const scripts = Object.values(pkg.scripts).join('\n');
    const runByScript = (name: string): boolean => {
      const { bin } = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
      const commands = typeof bin === 'string' ? [name.split('/').at(-1) ?? name] : Object.keys(bin ?? {});
      return commands.some((command) => new RegExp(`(^|[\\s&;(])${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`, 'm').test(scripts));
    };
    const typesOf = (name: string): string | null => (name.startsWith('@types/') ? name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2') : null);
    const usesNodeBuiltins = everything.imports.some((i) => i.specifier.startsWith('node:'));
    const unused = devDependencies.filter((name) => {
      if (imported.has(name) || runByScript(name)) return false;
      const typed = typesOf(name);
      if (typed) return !(typed === 'node' ? usesNodeBuiltins : imported.has(typed));
      const byName = USED_BY_NAME[name];
      return !(byName && readFileSync(join(root, byName.file), 'utf8').includes(byName.text));
    });
    expect(unused).toEqual([]);
  });
});
