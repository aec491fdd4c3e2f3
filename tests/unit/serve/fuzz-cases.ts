// What the fuzz tests of both doors into the API share (serve mode's WebSocket, api-fuzz.test.ts; Electron's IPC,
// ../electron/ipc-fuzz.test.ts): a seeded generator whose seed a failure names, arguments of every kind and of the
// kinds each method takes (run ids, kernel paths, run requests), and a data folder of stored runs whose bytes are
// compared before and after.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { API_METHODS } from '../../../main/common/contract/index.ts';
import type { ApiMethod } from '../../../main/common/contract/index.ts';
import { ERROR_CODES } from '../../../main/common/errors.ts';
import { labDescriptors } from '../../../main/labs/index.ts';
import { kernelFiles } from '../../../main/sources/kernel-sources.ts';
import { mulberry32 } from '../seeded-random.ts';

// GPU_LAB_FUZZ_SEED replays a failure; the default keeps every run of the suite the same.
export const FUZZ_SEED = Number(process.env.GPU_LAB_FUZZ_SEED ?? 20261123);

// Seeded (mulberry32), good enough to pick cases.
export class Random {
  private readonly draw: () => number;
  constructor(seed: number) {
    this.draw = mulberry32(seed);
  }
  next(): number {
    return this.draw();
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    // In range, so an element of the list (which may itself be undefined).
    return items[this.int(items.length)] as T;
  }
  text(maxLength: number): string {
    const alphabets = ['abcdefghijklmnopqrstuvwxyz', '0123456789.-_/\\:', '{}[]",:\u0000\u001f\n', 'αβγ💥é\u2028\ud800'];
    return Array.from({ length: this.int(maxLength + 1) }, () => this.pick([...this.pick(alphabets)])).join('');
  }
}

const ODD_STRINGS = ['', ' ', '__proto__', 'constructor', 'prototype', 'toString', '..', '../..', '/etc/passwd', 'C:\\Windows\\win.ini', '%2e%2e%2f', '\u0000', 'x'.repeat(5000), '💥', 'null', '1e309'];
const ODD_NUMBERS = [0, -0, -1, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MIN_VALUE];

// Any JSON value, nested at most `depth` more levels.
export function anyValue(rng: Random, depth = 3): unknown {
  switch (rng.int(9)) {
    case 0:
      return rng.pick(ODD_NUMBERS);
    case 1:
      return rng.int(2000) - 1000;
    case 2:
      return rng.pick(ODD_STRINGS);
    case 3:
      return rng.text(40);
    case 4:
      return rng.chance(0.5);
    case 5:
      return null;
    case 6:
      return depth > 0 ? Array.from({ length: rng.int(5) }, () => anyValue(rng, depth - 1)) : [];
    case 7: {
      if (depth <= 0) return {};
      const value: Record<string, unknown> = {};
      for (let i = rng.int(4); i > 0; i--) value[rng.chance(0.3) ? rng.pick(ODD_STRINGS) : rng.text(8)] = anyValue(rng, depth - 1);
      return value;
    }
    default:
      return rng.pick(['cpu', 'cuda:0', 'matmul', 'json', 'csv', 'shaders/cuda/sgemm.cu']);
  }
}

// Nested arrays or objects `levels` deep, as a value and as its JSON text (built without recursion).
export function deepValue(rng: Random, levels: number): { value: unknown; json: string } {
  const arrays = rng.chance(0.5);
  let value: unknown = 0;
  for (let i = 0; i < levels; i++) value = arrays ? [value] : { a: value };
  const json = arrays ? `${'['.repeat(levels)}0${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}0${'}'.repeat(levels)}`;
  return { value, json };
}

const KERNEL_FILES = kernelFiles(labDescriptors());
const TRAVERSALS = ['../../../../etc/passwd', '/etc/passwd', 'shaders/cuda/../../package.json', 'shaders/cuda/sgemm.cu/../../../package.json', 'native/cpu/../../package.json', 'shaders%2Fcuda%2F..%2F..%2Fpackage.json', '..\\..\\package.json', 'shaders/cuda/sgemm.cu\u0000', 'native/build/Release/gpu_lab.node', 'package.json', 'runs/../../secret.json', '~/.ssh/id_rsa', 'file:///etc/passwd'];

export function kernelFileArgument(rng: Random): unknown {
  if (rng.chance(0.3)) return rng.pick(KERNEL_FILES);
  if (rng.chance(0.6)) return rng.pick(TRAVERSALS);
  return anyValue(rng);
}

// A run id: one of the stored runs (when `stored` is given), a well-formed one that names nothing, a path, or
// anything else.
export function runIdArgument(rng: Random, stored: readonly string[]): unknown {
  const roll = rng.next();
  if (roll < 0.35 && stored.length > 0) return rng.pick(stored);
  if (roll < 0.55) return `fuzz-${rng.int(1e9)}`;
  if (roll < 0.75) return rng.pick(['..', '.', '...', '../runs/x', 'a/b', 'a\\b', '%2e%2e', 'x\u0000', ' ', 'r'.repeat(121), ...TRAVERSALS]);
  return anyValue(rng);
}

// A run request, now and then one small enough to run in a moment on the CPU.
export function runRequestArgument(rng: Random): unknown {
  if (rng.chance(0.08)) return { lab: 'vector-function', device: 'cpu', params: { elements: 1 + rng.int(1000), repeats: 1, warmup: 0 } };
  const lab = rng.pick(labDescriptors());
  const params: Record<string, unknown> = {};
  for (let i = rng.int(4); i > 0; i--) params[rng.chance(0.85) ? rng.pick(lab.parameters).name : rng.pick(ODD_STRINGS)] = anyValue(rng, 2);
  if (rng.chance(0.05)) return anyValue(rng);
  return {
    lab: rng.chance(0.9) ? lab.id : anyValue(rng, 1),
    ...(rng.chance(0.6) ? { device: rng.pick(['cpu', 'cuda:0', 'cuda:99', 'gpu', 'cuda:-1', 7]) } : {}),
    ...(rng.chance(0.9) ? { params: rng.chance(0.9) ? params : anyValue(rng) } : {}),
    ...(rng.chance(0.05) ? { extra: true } : {}),
  };
}

// Arguments for a method: mostly of the kinds it takes, sometimes too many, too few, or of another type entirely.
// deleteRun is never given a stored run, whose loss the test would then cause. What is drawn depends on the seed
// alone, never on earlier answers, so that a seed replays the same cases.
export function argumentsFor(rng: Random, method: ApiMethod, stored: readonly string[]): unknown {
  if (rng.chance(0.05)) return anyValue(rng, 2);
  let args: unknown[];
  switch (method) {
    case 'labs.kernelSource':
      args = [kernelFileArgument(rng)];
      break;
    case 'labs.validateParams':
      args = [rng.chance(0.8) ? rng.pick(labDescriptors()).id : anyValue(rng, 1), (runRequestArgument(rng) as { params?: unknown } | null)?.params ?? anyValue(rng)];
      break;
    case 'runs.startRun':
      args = [runRequestArgument(rng)];
      break;
    case 'runs.deleteRun':
      args = [runIdArgument(rng, [])];
      break;
    case 'runs.cancelRun':
    case 'runs.getRun':
    case 'runs.getRunProgress':
      args = [runIdArgument(rng, stored)];
      break;
    case 'runs.exportRun':
      args = [runIdArgument(rng, stored), rng.chance(0.7) ? rng.pick(['json', 'csv', 'csv-samples']) : anyValue(rng, 1)];
      break;
    case 'devices.readTelemetry':
      args = [rng.chance(0.7) ? rng.pick(['cuda:0', 'cuda:1', 'cuda:99', 'cpu', 'cuda:', 'cuda:0:0']) : anyValue(rng, 1)];
      break;
    default:
      args = [];
  }
  if (rng.chance(0.05)) args.push(anyValue(rng, 1));
  if (rng.chance(0.05)) args.pop();
  return args;
}

export function anyMethod(rng: Random): ApiMethod {
  return rng.pick(API_METHODS);
}

// Names a wire may carry that are not methods: members of the services that are no part of the contract, the
// objects' own machinery, and noise.
export function unknownMethod(rng: Random): string {
  return rng.chance(0.7)
    ? rng.pick(['runs.onDidChangeRun', 'runs.whenIdle', 'runs.execute', 'supervisor.stop', 'store.delete', 'dispose', 'close', '__proto__', 'constructor', 'toString', 'runs.__proto__', 'runs.constructor', 'devices.hasOwnProperty', 'labs.', '.listLabs', 'labs.listLabs.call', 'LABS.LISTLABS', 'labs.listLabs '])
    : rng.text(30);
}

export function isCodedError(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as { code?: unknown; message?: unknown };
  return typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code) && typeof message === 'string';
}

// A V8 stack frame line, as Error.stack writes it.
export const STACK_FRAME = /\n\s+at .+:\d+:\d+/;

const FIXTURE_RUNS = fileURLToPath(new URL('../../fixtures/runs/', import.meta.url));

// A data folder holding the fixture records as a lab host stores them (<id>.json in runs/).
export function storedRunsFolder(): { dataDir: string; runIds: string[]; snapshot(): Map<string, Buffer> } {
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-fuzz-data-'));
  const runsDir = join(dataDir, 'runs');
  mkdirSync(runsDir);
  const runIds = readdirSync(FIXTURE_RUNS)
    .filter((name) => name.endsWith('.json'))
    .map((name) => {
      const id = (JSON.parse(readFileSync(join(FIXTURE_RUNS, name), 'utf8')) as { id: string }).id;
      copyFileSync(join(FIXTURE_RUNS, name), join(runsDir, `${id}.json`));
      return id;
    });
  const snapshot = (): Map<string, Buffer> => new Map(readdirSync(runsDir).map((name) => [name, readFileSync(join(runsDir, name))]));
  return { dataDir, runIds, snapshot };
}

// The stored records whose bytes changed or that are gone, leaving out the runs the fuzz started itself.
export function damagedRecords(before: Map<string, Buffer>, after: Map<string, Buffer>, fuzzStarted: ReadonlySet<string>): string[] {
  const damaged = [...before].filter(([name, bytes]) => !after.get(name)?.equals(bytes)).map(([name]) => name);
  const unexpected = [...after.keys()].filter((name) => !before.has(name) && !fuzzStarted.has(name.replace(/\.json$/, '')));
  return [...damaged, ...unexpected.map((name) => `${name} (not a run the fuzz started)`)];
}
