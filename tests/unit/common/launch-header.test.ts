// A kernel file's launch header as the app and `gpu-lab kernel run` read it: any header a student or the playground
// writes (generated: fields in any order, x, × or commas, on any line among code and comments) reads back as
// written; a wrong one is refused naming its line, its field, the value and what was expected; and the launch it
// gives covers the size its grid rule promises.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { describeLaunchHeaderProblem, gridFor, launchHeaderText, readLaunchHeader, resolveLaunch } from '../../../main/common/pure/launch-header.ts';
import type { GridRule, LaunchHeader } from '../../../main/common/pure/launch-header.ts';
import type { Dim3 } from '../../../main/common/playground.ts';

const block: fc.Arbitrary<Dim3> = fc
  .tuple(fc.integer({ min: 1, max: 1024 }), fc.integer({ min: 1, max: 1024 }), fc.integer({ min: 1, max: 64 }))
  .filter(([x, y, z]) => x * y * z <= 1024);
const dims = (max: Dim3): fc.Arbitrary<Dim3> => fc.tuple(fc.integer({ min: 1, max: max[0] }), fc.integer({ min: 1, max: max[1] }), fc.integer({ min: 1, max: max[2] }));
const rule: fc.Arbitrary<GridRule> = fc.oneof(
  fc.constant<GridRule>({ kind: 'cover' }),
  dims([1 << 20, 1 << 20, 64]).map((tile): GridRule => ({ kind: 'tiles', tile })),
  dims([2 ** 31 - 1, 65535, 65535]).map((grid): GridRule => ({ kind: 'fixed', grid })),
);
const header = fc
  .record({ block, grid: rule, sharedBytes: fc.integer({ min: 0, max: 49152 }) }, { requiredKeys: [] })
  .filter((h) => Object.keys(h).length > 0);

// A header written by hand: its fields in any order, its dimensions separated by x, × or a comma, padded anyhow.
function written(h: Omit<LaunchHeader, 'line'>, order: readonly number[], sep: string, lead: string): string {
  const d = (v: Dim3): string => (v[2] > 1 ? v.join(sep) : v[1] > 1 ? `${v[0]}${sep}${v[1]}` : String(v[0]));
  const fields = [
    h.block ? `block=${d(h.block)}` : null,
    h.grid ? `grid=${h.grid.kind === 'cover' ? 'cover' : h.grid.kind === 'tiles' ? `tiles:${d(h.grid.tile)}` : d(h.grid.grid)}` : null,
    h.sharedBytes !== undefined ? `shared=${h.sharedBytes}` : null,
  ];
  return `${lead}//${lead}launch: ${order.map((i) => fields[i]).filter((f) => f !== null).join(`${lead} `)}`;
}
const ORDERS = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] as const;

const otherLines = fc.array(
  fc.constantFrom('// Launch: ⌈n / blockDim.x⌉ blocks.', '__global__ void saxpy(const float* x, float* y) {', '  y[0] = x[0];', '}', '', '// launch blocks of 256', '/* launch: not a header */'),
  { maxLength: 6 },
);

describe('a launch header', () => {
  it('reads back every header written, wherever it stands and however it is spaced', () => {
    fc.assert(
      fc.property(header, fc.constantFrom(...ORDERS), fc.constantFrom('x', '×', ','), fc.constantFrom('', ' ', '\t', '  '), otherLines, otherLines, (h, order, sep, lead, before, after) => {
        const source = [...before, written(h, order, sep, lead), ...after].join('\n');
        const read = readLaunchHeader(source);
        expect(read.problem).toBeNull();
        expect(read.header).toEqual({ ...h, line: before.length + 1 });
      }),
    );
  });

  it('reads its own text back', () => {
    fc.assert(
      fc.property(header, (h) => {
        expect(readLaunchHeader(launchHeaderText(h)).header).toEqual({ ...h, line: 1 });
      }),
    );
  });

  it('is none in a file without one, prose about launching included', () => {
    expect(readLaunchHeader('// Launch: ⌈n / 256⌉ blocks\n__global__ void k() {}\n').header).toBeNull();
  });

  it.each([
    ['// launch:', { field: 'launch', value: '', reason: 'empty' }, 'names no field: expected block='],
    ['// launch: block 256', { field: 'launch', value: 'block', reason: 'not-a-field' }, '"block" is not a field: expected key=value'],
    ['// launch: threads=256', { field: 'launch', value: 'threads', reason: 'unknown-field' }, 'there is no field "threads": expected block, grid or shared'],
    ['// launch: block=256 block=128', { field: 'launch', value: 'block', reason: 'repeated-field' }, '`block` is given twice'],
    ['// launch: block=32x', { field: 'block', value: '32x', reason: 'dims' }, '`block` = "32x" is not allowed: expected 1 to 3 whole numbers from 1'],
    ['// launch: block=0', { field: 'block', value: '0', reason: 'dims' }, '`block` = "0" is not allowed'],
    ['// launch: block=1x1x65', { field: 'block', value: '1x1x65', reason: 'axis-limit', axis: 'z', limit: 64 }, 'expected z at most 64'],
    ['// launch: block=64x32', { field: 'block', value: '64x32', reason: 'threads', limit: 1024 }, 'expected at most 1024 threads in all'],
    ['// launch: grid=auto', { field: 'grid', value: 'auto', reason: 'grid-rule' }, '`grid` = "auto" is not allowed: expected cover, tiles:W[xH[xD]] or a grid'],
    ['// launch: grid=1x70000', { field: 'grid', value: '1x70000', reason: 'axis-limit', axis: 'y', limit: 65535 }, 'expected y at most 65535'],
    ['// launch: grid=tiles:', { field: 'grid', value: 'tiles:', reason: 'dims' }, '`grid` = "tiles:" is not allowed'],
    ['// launch: shared=64k', { field: 'shared', value: '64k', reason: 'shared', limit: 49152 }, '`shared` = "64k" is not allowed: expected a whole number of bytes from 0 to 49152'],
    ['// launch: shared=49153', { field: 'shared', value: '49153', reason: 'shared' }, 'from 0 to 49152'],
  ] as const)('refuses %j, naming the field, the value and what was expected', (line, problem, said) => {
    const read = readLaunchHeader(`// a kernel\n${line}\n__global__ void k() {}`);
    expect(read.header).toBeNull();
    expect(read.problem).toMatchObject({ line: 2, ...problem });
    if (!read.problem) return;
    expect(describeLaunchHeaderProblem(read.problem)).toContain('line 2, the launch header');
    expect(describeLaunchHeaderProblem(read.problem)).toContain(said);
  });

  it('refuses a second header, naming both lines', () => {
    const read = readLaunchHeader('// launch: block=256\n\n// launch: block=128\n');
    expect(read.problem).toMatchObject({ line: 3, reason: 'second-header', limit: 1 });
  });
});

describe('the launch a header gives', () => {
  const oneD = { cover: '1d' as const, defaultBlock: [256, 1, 1] as Dim3 };
  const twoD = { cover: '2d' as const, defaultBlock: [16, 16, 1] as Dim3 };

  it('covers every element: enough blocks of the rule\'s tile, and not one more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 28 }), dims([4096, 4096, 4]), fc.boolean(), (size, tile, matrix) => {
        const [gx, gy] = gridFor({ kind: 'tiles', tile }, matrix ? '2d' : '1d', size, block0(tile));
        if (matrix) {
          expect(gx * tile[0]).toBeGreaterThanOrEqual(size);
          expect(gy * tile[1]).toBeGreaterThanOrEqual(size);
          expect((gx - 1) * tile[0]).toBeLessThan(size);
        } else {
          const per = tile[0] * tile[1] * tile[2];
          expect(gx * per).toBeGreaterThanOrEqual(size);
          expect((gx - 1) * per).toBeLessThan(size);
        }
      }),
    );
  });

  it('takes the student\'s block and grid over the header\'s, and the header\'s over the exercise\'s', () => {
    const h = readLaunchHeader('// launch: block=32x8 grid=tiles:32x32 shared=1024').header;
    expect(resolveLaunch(twoD, 4096, h)).toEqual({ block: [32, 8, 1], grid: [128, 128, 1], dynamicSharedBytes: 1024 });
    // A block of the student's keeps the header's rule: the tiles stay 32 × 32.
    expect(resolveLaunch(twoD, 4096, h, { block: [32, 4, 1] }).grid).toEqual([128, 128, 1]);
    expect(resolveLaunch(twoD, 4096, h, { grid: [7, 7, 1] }).grid).toEqual([7, 7, 1]);
    // One thread per element follows the block.
    const cover = readLaunchHeader('// launch: grid=cover').header;
    expect(resolveLaunch(oneD, 1000, cover, { block: [128, 1, 1] })).toEqual({ block: [128, 1, 1], grid: [8, 1, 1], dynamicSharedBytes: 0 });
    expect(resolveLaunch(oneD, 1000, null)).toEqual({ block: [256, 1, 1], grid: [4, 1, 1], dynamicSharedBytes: 0 });
  });
});

// Any block: the rule's tile decides the grid, not the block.
function block0(tile: Dim3): Dim3 {
  return [Math.min(tile[0], 1024), 1, 1];
}
