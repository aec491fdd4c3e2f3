// Unit 10 (seed 004) on a real GPU, through a real compute host and the Python worker on the venv's interpreter
// (GPU_LAB_PYTHON, else /opt/torch/.venv/bin/python where it exists): PyTorch 2.11, transformers and cuda.core, no
// PyCUDA, no diffusers, no network.
//
// 1. The playground's launch from Python: multiply, add and SGEMM kernels launched again through cuda.core (PyCUDA
//    is absent there, so the worker falls back to it; through PyCUDA where an interpreter has it), verified by the
//    exercise's own check and timed beside the NVRTC launch; the sentence comparing them is printed. A wrong kernel
//    never reaches Python.
// 2. The text-to-image lab: every GPU point measured and checked against the CPU's float64 step, the GPU's fp32 step
//    at batch 1 within 5·10⁻⁴ (printed), the CPU's fp32 at batch 1 measured, and the findings that answer the
//    notebook's question; every point's time, rate and memory printed.
// 3. The Python model's counts against main's (common/unet-work.ts): parameters, and FLOPs as PyTorch's
//    FlopCounterMode counts them, on the meta device.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { createLabHost } from '../../main/app/lab-host.ts';
import type { LabHost } from '../../main/app/lab-host.ts';
import { translator } from '../../main/common/pure/i18n/index.ts';
import { renderMessage } from '../../main/common/pure/message.ts';
import { pythonLaunchFinding } from '../../main/common/pure/python-launch.ts';
import { clipTextFlops, clipTextParameters, unetFlops, unetParameters } from '../../main/common/unet-work.ts';
import { peersDir } from '../../main/host/python-worker.ts';
import { labMessage } from '../../main/labs/lab-text.ts';
import { DEVICE, skipWithoutGpu } from './helpers.ts';

const VENV = '/opt/torch/.venv/bin/python';
if (!process.env.GPU_LAB_PYTHON && existsSync(VENV)) process.env.GPU_LAB_PYTHON = VENV;
const python = process.env.GPU_LAB_PYTHON ?? 'python3';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');
const say = (line: string): void => void process.stdout.write(`[unit10] ${line}\n`);

let host: LabHost;
// The launcher the worker picks: PyCUDA where it imports and has nvcc, else cuda.core (the GPU machine has no PyCUDA).
let launcher: 'python-pycuda' | 'python-cuda-core' = 'python-cuda-core';

describe('Unit 10 on the GPU', { skip: skipWithoutGpu }, () => {
  before(() => {
    host = createLabHost({ dataDir: mkdtempSync(join(tmpdir(), 'gpu-lab-unit10-')), warn: () => undefined });
  });
  after(async () => {
    await host.runs.whenIdle();
    await host.dispose();
  });

  it('gpu-lab peers: cuda.core and transformers found, PyCUDA found or missing with its reason', async () => {
    const report = await host.devices.inspectPython();
    assert.ok(report.available, JSON.stringify(report));
    for (const [name, lib] of Object.entries(report.probe.libraries)) say(`peers: ${name} ${lib.found ? `${lib.version} cuda=${String(lib.cudaAvailable)} ${lib.cudaReason ?? ''}` : `missing: ${lib.reason}`}`);
    assert.equal(report.probe.libraries['cuda-core']?.found, true);
    assert.equal(report.probe.libraries['cuda-core']?.found && report.probe.libraries['cuda-core'].cudaAvailable, true);
    assert.equal(report.probe.libraries.transformers?.found, true);
    const pycuda = report.probe.libraries.pycuda;
    if (pycuda?.found && pycuda.cudaAvailable) launcher = 'python-pycuda';
    say(`launch from Python: ${launcher === 'python-pycuda' ? 'PyCUDA (SourceModule, Event)' : 'cuda.core (Program, launch, events): PyCUDA is not usable here'}`);
  });

  for (const [exercise, size] of [['multiply', undefined], ['add', undefined], ['sgemm', 1024]] as const) {
    it(`${exercise}: the starter launched from Python (cuda.core, or PyCUDA where it is usable), verified and timed beside NVRTC's launch`, { timeout: 120_000 }, async () => {
      const starter = read(`shaders/playground/${exercise}.starter.cu`);
      const r = await host.playground.runKernel({ exercise, source: starter, ...(size ? { size } : {}) });
      assert.equal(r.status, 'verified', JSON.stringify(r.error ?? r.result?.verification));
      const result = r.result;
      assert.ok(result?.throughput);
      const python = result.comparisons.find((c) => c.kind === 'python');
      assert.ok(python, 'a comparison launched from Python');
      say(`${exercise} n=${result.size}: NVRTC ${result.throughput.medianMs.toFixed(4)} ms (${result.throughput.samplesMs.length} launches); ${python.id} ${python.throughput ? `${python.throughput.medianMs.toFixed(4)} ms (${python.throughput.samplesMs.length} launches)` : `no figure: ${python.error ?? ''}`}; ${python.implementation ?? ''}`);
      assert.equal(python.id, launcher, python.error ?? '');
      assert.ok(python.verified && python.throughput, python.error ?? '');
      const finding = pythonLaunchFinding(result);
      assert.ok(finding);
      say(`${exercise}: ${renderMessage(finding, translator('en'), 'en')}`);
    });
  }

  it('a wrong kernel fails the NVRTC launch’s check and is never launched from Python', async () => {
    const wrong = read('shaders/playground/multiply.starter.cu').replace('a[i] * b[i]', 'a[i] + b[i]');
    const r = await host.playground.runKernel({ exercise: 'multiply', source: wrong });
    assert.equal(r.status, 'verification-failed');
    assert.deepEqual(r.result?.comparisons ?? [], []);
  });

  it('the text-to-image lab: every GPU point measured and checked against the CPU’s float64 step; the CPU’s batch 1 measured; the notebook’s question answered', { timeout: 480_000 }, async () => {
    const { runId } = await host.runs.startRun({ lab: 'text-to-image', device: DEVICE, params: { steps: 4, batches: [1, 4] }, peers: ['torch', 'transformers'] });
    await host.runs.whenIdle();
    const record = await host.runs.getRun(runId);
    // Kept where asked (GPU_LAB_UNIT10_RECORDS): the record a fixture of a real run is taken from.
    const keep = process.env.GPU_LAB_UNIT10_RECORDS;
    if (keep) {
      mkdirSync(keep, { recursive: true });
      writeFileSync(join(keep, 'h200-text-to-image.json'), JSON.stringify(record, null, 1));
    }
    for (const p of record.points) {
      const figures = p.status === 'ok' && p.stats
        ? `${p.stats.median.toFixed(2)} ms (${p.stats.count} samples, ±${(((p.stats.ciHigh ?? p.stats.median) - (p.stats.ciLow ?? p.stats.median)) / 2 / p.stats.median * 100).toFixed(1)} %), ${((p.gflops ?? 0) / 1000).toFixed(2)} TFLOP/s, memory ${p.memory ? `${(p.memory.bytes / 2 ** 30).toFixed(2)} GiB ${p.memory.where}` : '—'}, rel err ${p.verification?.relativeError?.toExponential(2) ?? '—'} (tol ${p.verification?.tolerance ?? '—'})`
        : `${p.status}: ${p.reason ?? p.error?.message ?? ''}`;
      say(`t2i ${p.key}: ${figures}`);
    }
    say(`t2i implementation: ${record.points.find((p) => p.implementation)?.implementation ?? '—'}`);
    for (const f of record.findings) say(`t2i finding ${f.id}: ${labMessage(f.message, 'en')}`);
    const headline = record.findings.find((f) => f.id === 'image-speedup');
    if (headline) say(`t2i (es) ${labMessage(headline.message, 'es')}`);
    const unexpected = record.points.filter((p) => p.device !== 'cpu' && p.status !== 'ok');
    assert.deepEqual(unexpected.map((p) => `${p.key}: ${p.status} ${p.reason ?? ''}`), []);
    const check = record.points.find((p) => p.key === 'gpu-fp32@1');
    assert.ok(check?.verification?.passed, JSON.stringify(check?.verification));
    assert.ok((check.verification.relativeError ?? 1) <= 5e-4);
    assert.equal(record.points.find((p) => p.key === 'cpu-fp32@1')?.status, 'ok', record.points.find((p) => p.key === 'cpu-fp32@1')?.reason ?? '');
    assert.equal(record.points.find((p) => p.key === 'cpu-fp32@4')?.status, 'waived');
    for (const id of ['image-speedup', 'why', 'half', 'batch', 'check', 'memory', 'scope']) assert.ok(record.findings.some((f) => f.id === id), `finding ${id}`);
    // A U-Net's weights alone are 1.7 GB in fp16, 3.4 GB in fp32: every GPU step point held more than that.
    assert.ok(record.points.filter((p) => p.device !== 'cpu' && p.key.includes('@')).every((p) => p.memory?.where === 'device' && p.memory.bytes > (p.key.includes('fp16') ? 1.7e9 : 3.4e9)));
    assert.equal(record.status, 'completed');
  });

  it('the Python model’s parameters and FLOPs are main’s counts (FlopCounterMode on the meta device)', { timeout: 120_000 }, () => {
    const script = [
      'import json, torch, transformers',
      'from torch.utils.flop_counter import FlopCounterMode',
      'from gpu_lab_peers.labs import sd15_unet, text_to_image',
      'with torch.device("meta"):',
      '    unet = sd15_unet.build(torch, 4)',
      '    text = transformers.CLIPTextModel(text_to_image._clip_config(transformers))',
      '    counter = FlopCounterMode(display=False)',
      '    with counter:',
      '        unet(torch.zeros(2, 4, 64, 64), torch.tensor([999, 999]), torch.zeros(2, 77, 768))',
      '    unet_flops = counter.get_total_flops()',
      '    counter = FlopCounterMode(display=False)',
      '    with counter:',
      '        text(torch.zeros(2, 77, dtype=torch.long))',
      'print(json.dumps({"unet": sum(p.numel() for p in unet.parameters()), "text": sum(p.numel() for p in text.parameters()), "unetFlops": unet_flops, "textFlops": counter.get_total_flops()}))',
    ].join('\n');
    const r = spawnSync(python, ['-c', script], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: peersDir() ?? '' } });
    assert.equal(r.status, 0, r.stderr);
    const counts = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, number>;
    say(`counts: ${JSON.stringify(counts)}`);
    assert.deepEqual(counts, { unet: unetParameters(), text: clipTextParameters(), unetFlops: unetFlops(64, 2), textFlops: clipTextFlops(2) });
  });
});
