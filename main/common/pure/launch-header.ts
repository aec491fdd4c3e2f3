// A kernel file's launch header: one comment line that says how the file's kernel is launched, read by the app
// (the launch form takes it when the file is loaded or typed) and by `gpu-lab kernel run`, which apply it unless the
// student gives a block or a grid of their own. Every starter and reference kernel of the playground carries one.
//
//   // launch: block=32x32 grid=cover shared=0
//
//   block=X[xY[xZ]]       threads per block (the dimensions left out are 1); CUDA's limits: x, y ≤ 1024, z ≤ 64,
//                         x·y·z ≤ 1024
//   grid=cover            one thread per element: ⌈n / (x·y·z)⌉ blocks, or ⌈N / x⌉ × ⌈N / y⌉ for a matrix (the
//                         playground's grid when there is no header)
//   grid=tiles:W[xH[xD]]  each block covers W (×H) elements, whatever its threads: ⌈n / W·H·D⌉, or ⌈N / W⌉ × ⌈N / H⌉
//   grid=X[xY[xZ]]        this grid, whatever the size (x < 2³¹, y and z ≤ 65535)
//   shared=BYTES          dynamic shared memory per block, 0 to 49152 (more needs an opt-in the playground does not
//                         make); 0 when left out
//
// The line is `// launch:` at its start (spaces before it allowed), once per file; every field is optional but at
// least one is given. `x` may also be written `×` or `,`. Pure: the renderer reads headers as main does.
import type { Dim3 } from '../playground.ts';

export type GridRule = { kind: 'cover' } | { kind: 'tiles'; tile: Dim3 } | { kind: 'fixed'; grid: Dim3 };

export interface LaunchHeader {
  // 1-based line of the header in the source.
  line: number;
  block?: Dim3;
  grid?: GridRule;
  sharedBytes?: number;
}

export type LaunchHeaderField = 'block' | 'grid' | 'shared' | 'launch';

// What is wrong, as data: the app says it from its catalogs (playground.launch.header.<reason>), main in English.
export type LaunchHeaderReason =
  // `launch:` with no field after it.
  | 'empty'
  // A word that is not key=value.
  | 'not-a-field'
  // A key other than block, grid and shared.
  | 'unknown-field'
  // The same key twice.
  | 'repeated-field'
  // A second `// launch:` line (`limit`: the line of the first).
  | 'second-header'
  // Not 1 to 3 whole numbers from 1, separated by x.
  | 'dims'
  // An axis past CUDA's limit (`axis`, `limit`).
  | 'axis-limit'
  // More than 1024 threads in a block.
  | 'threads'
  // Not cover, tiles:… or a grid.
  | 'grid-rule'
  // Not a whole number of bytes from 0 to 49152.
  | 'shared';

export interface LaunchHeaderProblem {
  line: number;
  field: LaunchHeaderField;
  // As written, cut to 60 characters.
  value: string;
  reason: LaunchHeaderReason;
  axis?: 'x' | 'y' | 'z';
  limit?: number;
}

export const MAX_DYNAMIC_SHARED_BYTES = 49_152;
const BLOCK_LIMITS: Dim3 = [1024, 1024, 64];
const GRID_LIMITS: Dim3 = [2 ** 31 - 1, 65_535, 65_535];
const TILE_LIMITS: Dim3 = [2 ** 31 - 1, 2 ** 31 - 1, 2 ** 31 - 1];
const AXES = ['x', 'y', 'z'] as const;
const HEADER = /^[ \t]*\/\/[ \t]*launch:(.*)$/;

export type LaunchHeaderResult = { header: LaunchHeader | null; problem: null } | { header: null; problem: LaunchHeaderProblem };

class Refusal extends Error {
  readonly problem: LaunchHeaderProblem;
  constructor(problem: LaunchHeaderProblem) {
    super(problem.reason);
    this.problem = problem;
  }
}

function dims(text: string, limits: Dim3, at: Omit<LaunchHeaderProblem, 'reason'>): Dim3 {
  const parts = text.split(/[x×,]/);
  if (parts.length > 3 || !parts.every((p) => /^\d{1,10}$/.test(p) && Number(p) >= 1)) throw new Refusal({ ...at, reason: 'dims' });
  const [x = 1, y = 1, z = 1] = parts.map(Number);
  const d: Dim3 = [x, y, z];
  d.forEach((v, i) => {
    const limit = limits[i] ?? 1;
    if (v > limit) throw new Refusal({ ...at, reason: 'axis-limit', axis: AXES[i], limit });
  });
  return d;
}

function field(key: string, value: string, line: number): Partial<LaunchHeader> {
  const at = { line, field: key as LaunchHeaderField, value: value.slice(0, 60) };
  switch (key) {
    case 'block': {
      const block = dims(value, BLOCK_LIMITS, at);
      if (block[0] * block[1] * block[2] > 1024) throw new Refusal({ ...at, reason: 'threads', limit: 1024 });
      return { block };
    }
    case 'grid':
      if (value === 'cover') return { grid: { kind: 'cover' } };
      if (value.startsWith('tiles:')) return { grid: { kind: 'tiles', tile: dims(value.slice('tiles:'.length), TILE_LIMITS, at) } };
      if (!/^\d/.test(value)) throw new Refusal({ ...at, reason: 'grid-rule' });
      return { grid: { kind: 'fixed', grid: dims(value, GRID_LIMITS, at) } };
    case 'shared': {
      const bytes = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
      if (!(bytes >= 0 && bytes <= MAX_DYNAMIC_SHARED_BYTES)) throw new Refusal({ ...at, reason: 'shared', limit: MAX_DYNAMIC_SHARED_BYTES });
      return { sharedBytes: bytes };
    }
    default:
      throw new Refusal({ line, field: 'launch', value: key.slice(0, 60), reason: 'unknown-field' });
  }
}

function parseLine(rest: string, line: number): LaunchHeader {
  const words = rest.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) throw new Refusal({ line, field: 'launch', value: '', reason: 'empty' });
  const header: LaunchHeader = { line };
  const seen = new Set<string>();
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new Refusal({ line, field: 'launch', value: word.slice(0, 60), reason: 'not-a-field' });
    const key = word.slice(0, eq);
    if (seen.has(key)) throw new Refusal({ line, field: 'launch', value: key.slice(0, 60), reason: 'repeated-field' });
    seen.add(key);
    Object.assign(header, field(key, word.slice(eq + 1), line));
  }
  return header;
}

// The source's launch header, null where it has none, or the first thing wrong with it.
export function readLaunchHeader(source: string): LaunchHeaderResult {
  let header: LaunchHeader | null = null;
  const lines = source.split(/\r\n|\r|\n/);
  try {
    for (const [i, text] of lines.entries()) {
      const m = HEADER.exec(text);
      if (!m) continue;
      if (header) throw new Refusal({ line: i + 1, field: 'launch', value: text.trim().slice(0, 60), reason: 'second-header', limit: header.line });
      header = parseLine(m[1] ?? '', i + 1);
    }
  } catch (err) {
    if (err instanceof Refusal) return { header: null, problem: err.problem };
    throw err;
  }
  return { header, problem: null };
}

// Dimensions as a header writes them, the trailing 1s left out: 256, 16x16, 8x8x4.
export const dimsText = (d: Dim3): string => (d[2] > 1 ? d.join('x') : d[1] > 1 ? `${d[0]}x${d[1]}` : String(d[0]));

export function gridRuleText(rule: GridRule): string {
  if (rule.kind === 'cover') return 'cover';
  return rule.kind === 'tiles' ? `tiles:${dimsText(rule.tile)}` : dimsText(rule.grid);
}

// The header line as a file carries it: "// launch: block=32x32 grid=cover".
export function launchHeaderText(h: Omit<LaunchHeader, 'line'>): string {
  const fields = [
    ...(h.block ? [`block=${dimsText(h.block)}`] : []),
    ...(h.grid ? [`grid=${gridRuleText(h.grid)}`] : []),
    ...(h.sharedBytes !== undefined ? [`shared=${h.sharedBytes}`] : []),
  ];
  return `// launch: ${fields.join(' ')}`;
}

// The problem in English, as main's refusals say it (the app says it from its catalogs).
export function describeLaunchHeaderProblem(p: LaunchHeaderProblem): string {
  const where = `line ${p.line}, the launch header`;
  const value = JSON.stringify(p.value);
  switch (p.reason) {
    case 'empty':
      return `${where}: \`// launch:\` names no field: expected block=X[xY[xZ]], grid=cover|tiles:W[xH]|X[xY[xZ]] or shared=BYTES`;
    case 'not-a-field':
      return `${where}: ${value} is not a field: expected key=value (block=…, grid=…, shared=…)`;
    case 'unknown-field':
      return `${where}: there is no field ${value}: expected block, grid or shared`;
    case 'repeated-field':
      return `${where}: \`${p.value}\` is given twice: expected each field once`;
    case 'second-header':
      return `${where}: a second launch header: expected one per file (the first is on line ${p.limit ?? '?'})`;
    case 'dims':
      return `${where}: \`${p.field}\` = ${value} is not allowed: expected 1 to 3 whole numbers from 1, separated by x (32, 16x16, 8x8x4)`;
    case 'axis-limit':
      return `${where}: \`${p.field}\` = ${value} is not allowed: expected ${p.axis ?? '?'} at most ${p.limit ?? '?'}`;
    case 'threads':
      return `${where}: \`block\` = ${value} is not allowed: expected at most ${p.limit ?? 1024} threads in all (x · y · z)`;
    case 'grid-rule':
      return `${where}: \`grid\` = ${value} is not allowed: expected cover, tiles:W[xH[xD]] or a grid X[xY[xZ]]`;
    case 'shared':
      return `${where}: \`shared\` = ${value} is not allowed: expected a whole number of bytes from 0 to ${p.limit ?? MAX_DYNAMIC_SHARED_BYTES}`;
  }
}

const blocksFor = (items: number, per: number): number => Math.max(1, Math.ceil(items / per));

// The grid a rule gives at this size and block: `cover` '1d' counts elements, '2d' an N × N output.
export function gridFor(rule: GridRule, cover: '1d' | '2d', size: number, block: Dim3): Dim3 {
  if (rule.kind === 'fixed') return rule.grid;
  const tile = rule.kind === 'tiles' ? rule.tile : block;
  if (cover === '1d') return [blocksFor(size, tile[0] * tile[1] * tile[2]), 1, 1];
  return [blocksFor(size, tile[0]), blocksFor(size, tile[1]), 1];
}

export interface ResolvedLaunch {
  grid: Dim3;
  block: Dim3;
  dynamicSharedBytes: number;
}

// The launch of a kernel: the student's block and grid where given, else the header's, else the exercise's block
// and one thread per element. A block given without a grid gets the header's grid rule with that block.
export function resolveLaunch(
  exercise: { cover: '1d' | '2d'; defaultBlock: Dim3 },
  size: number,
  header: LaunchHeader | null,
  given: { block?: Dim3; grid?: Dim3 } = {},
): ResolvedLaunch {
  const block = given.block ?? header?.block ?? exercise.defaultBlock;
  const grid = given.grid ?? gridFor(header?.grid ?? { kind: 'cover' }, exercise.cover, size, block);
  return { grid, block, dynamicSharedBytes: header?.sharedBytes ?? 0 };
}
