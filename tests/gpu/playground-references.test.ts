// Issue 24 on the GPU machine: every starter and every reference of every exercise, printed by `gpu-lab kernel show
// --kernel ID` into a file, compiles and verifies through `gpu-lab kernel run EXERCISE FILE.cu` with nothing but
// the launch its header states (no --block, no --grid); `--kernel ID` runs one the same way; and SGEMM's shared tiles
// forced into the 16 × 16 blocks that broke them report counts that add up: the wrong elements among those checked,
// the elements never written apart, no error sentinel. Prints each kernel's rate under its own launch.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { runCli } from '../../main/cli/main.ts';
import { EXERCISES } from '../../main/common/exercises.ts';
import { readLaunchHeader } from '../../main/common/pure/launch-header.ts';
import { KERNEL_RUN } from '../../main/common/playground.ts';
import type { KernelRun } from '../../main/common/playground.ts';
import { resolveRequest } from '../../main/playground/playground-service.ts';
import { skipWithoutGpu } from './helpers.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-references-'));
const files = mkdtempSync(join(tmpdir(), 'gpu-lab-reference-files-'));

async function gpuLab(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) }, {});
  return { code, out, err };
}

async function kernelRun(...argv: string[]): Promise<{ code: number; run: KernelRun; err: string }> {
  const r = await gpuLab('kernel', 'run', ...argv, '--no-compare', '--json', '--data-dir', dataDir, '--lang', 'en');
  assert.ok(r.out.trim().startsWith('{'), `no run came back (exit ${r.code}): ${r.err}`);
  return { code: r.code, run: KERNEL_RUN.parse(JSON.parse(r.out)), err: r.err };
}

function figure(line: string): void {
  process.stdout.write(`[playground-references] ${line}\n`);
}

describe('every kernel that comes with an exercise, run as the student\'s file', { skip: skipWithoutGpu }, () => {
  for (const def of EXERCISES) {
    for (const kernel of def.kernels) {
      it(`${def.id} --kernel ${kernel.id}: compiles and verifies under its header's launch`, async () => {
        const shown = await gpuLab('kernel', 'show', def.id, '--kernel', kernel.id);
        assert.equal(shown.code, 0, shown.err);
        const file = join(files, `${def.id}-${kernel.id}.cu`);
        writeFileSync(file, shown.out);
        const { code, run, err } = await kernelRun(def.id, file);
        const result = run.result;
        assert.equal(run.status, 'verified', `${err}\n${result?.compile.log ?? ''}\n${JSON.stringify(result?.verification ?? run.error)}`);
        assert.equal(code, 0, err);
        const expected = resolveRequest({ exercise: def.id, source: shown.out }).launch;
        assert.ok(readLaunchHeader(shown.out).header, 'the file states its launch');
        assert.deepEqual(result?.launch?.block, expected.block, 'the header\'s block');
        assert.deepEqual(result?.launch?.grid, expected.grid, 'the header\'s grid');
        const tp = result?.throughput;
        assert.ok(tp);
        figure(`${def.id} ${kernel.id}: block ${expected.block.join('×')}, grid ${expected.grid.join('×')}: ${tp.rate.toFixed(1)} ${def.metric}, ${tp.medianMs.toFixed(4)} ms; total ${result?.totalMs.toFixed(0) ?? '?'} ms`);
      });
    }
  }

  it('kernel run --kernel ID runs that kernel under its header\'s launch', async () => {
    const { code, run, err } = await kernelRun('sgemm', '--kernel', 'shared-tiles');
    assert.equal(code, 0, err);
    assert.equal(run.status, 'verified');
    assert.deepEqual(run.result?.launch?.block, [32, 32, 1]);
  });

  it('SGEMM\'s shared tiles under 16 × 16 blocks: wrong ≤ checked, the unwritten counted apart, no sentinel', async () => {
    const { code, run } = await kernelRun('sgemm', '--kernel', 'shared-tiles', '--block', '16,16');
    assert.equal(code, 1);
    assert.equal(run.status, 'verification-failed');
    const v = run.result?.verification;
    assert.ok(v && v.mismatchCount !== null && v.neverWritten !== null);
    assert.ok(v.mismatchCount <= v.checked, `${v.mismatchCount} wrong of ${v.checked} checked`);
    assert.ok(v.neverWritten > 0 && v.neverWritten <= v.total);
    assert.ok(v.maxRelativeError === null || v.maxRelativeError < 1e300, String(v.maxRelativeError));
    figure(`shared tiles under 16×16: ${v.mismatchCount} wrong of ${v.checked} checked, ${v.neverWritten} of ${v.total} never written, max rel. error ${String(v.maxRelativeError)}`);
  });
});

// Issue 24, item 4: what the compiler made of each starter, beside its source.
describe('kernel run --ptx --sass: the listings of every starter, mapped to its lines', { skip: skipWithoutGpu }, () => {
  const fixtures = process.env.OUT ? join(process.env.OUT, 'listings') : null;
  for (const def of EXERCISES) {
    const starter = def.kernels.find((k) => k.kind === 'starter');
    if (!starter) continue;
    it(`${def.id}: PTX from NVRTC and SASS from nvdisasm, each instruction's line one of the kernel's`, async () => {
      const shown = await gpuLab('kernel', 'show', def.id, '--kernel', 'starter');
      const file = join(files, `${def.id}.cu`);
      writeFileSync(file, shown.out);
      const { run } = await kernelRun(def.id, file, '--ptx', '--sass');
      const listings = run.result?.listings ?? [];
      assert.deepEqual(listings.map((l) => l.kind), ['ptx', 'sass']);
      const lineCount = shown.out.split('\n').length;
      const body = shown.out.split('\n').findIndex((l) => l.includes('__global__')) + 1;
      for (const l of listings) {
        assert.equal(l.unavailable, null, l.unavailable ?? '');
        const mapped = l.lines.filter((x) => x.source !== null);
        assert.ok(mapped.length > 0, `${l.kind}: no line mapped`);
        // Every mapped line is one of the kernel's own: none in the comments above it, none past the file.
        assert.ok(mapped.every((x) => (x.source ?? 0) >= body && (x.source ?? 0) <= lineCount), `${l.kind}: ${JSON.stringify(mapped.map((x) => x.source))}`);
        figure(`${def.id} ${l.kind} by ${l.tool}: ${l.lines.length} lines, ${mapped.length} mapped to lines ${Math.min(...mapped.map((x) => x.source ?? 0))}–${Math.max(...mapped.map((x) => x.source ?? 0))}`);
      }
      assert.match(listings[0]?.tool ?? '', /^NVRTC \d+\.\d+ \(compute_\d+\)$/);
      assert.match(listings[1]?.tool ?? '', /^nvdisasm \d+\.\d+$/);
      // The text a student reads, as the CLI prints it.
      const printed = await gpuLab('kernel', 'run', def.id, file, '--no-compare', '--ptx', '--sass', '--data-dir', dataDir, '--lang', 'en');
      assert.equal(printed.code, 0, printed.err);
      assert.match(printed.out, new RegExp(`// ${def.id}\\.cu:\\d+ `));
      if (fixtures) {
        // Kept for the unit tests' fixtures: the real tools' output.
        await import('node:fs').then((fs) => {
          fs.mkdirSync(fixtures, { recursive: true });
          fs.writeFileSync(join(fixtures, `${def.id}.txt`), printed.out);
        });
      }
    });
  }
});
