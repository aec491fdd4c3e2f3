// The Python peers' worker, for real: python3 with Debian's NumPy (README's set-up installs python3-numpy), started
// as the compute host starts it. What it finds, and every way it can go wrong — no interpreter, a module missing or
// crashing on import, a worker that prints garbage or hangs, a line that is not the protocol — ends as an error or
// a report with the reason, never as a hung or crashed host; and it exits when its stdin closes.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';

import { PEER_ANSWER, peerWaivedWhy } from '../../../main/common/peer-protocol.ts';
import { labMessage } from '../../../main/labs/lab-text.ts';
import { PeerWorker, peersDir, probePeers } from '../../../main/host/python-worker.ts';

const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-peers-'));
const started: PeerWorker[] = [];
afterAll(() => started.forEach((w) => w.stop()));

// A stand-in interpreter: python3 running `prelude` before the worker, as a broken installation would behave.
function stubPython(name: string, prelude: string): string {
  const path = join(dir, name);
  writeFileSync(`${path}.py`, `${prelude}\nimport runpy\nrunpy.run_module('gpu_lab_peers', run_name='__main__')\n`);
  writeFileSync(path, `#!/bin/sh\nexec python3 '${path}.py'\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('the worker on this machine', () => {
  it('finds NumPy, its version and the BLAS it calls, and says why torch, CuPy and Numba are not there where they are not', async () => {
    const report = await probePeers(['numpy', 'torch'], { ...process.env, GPU_LAB_PYTHON: 'python3' });
    expect(report.available).toBe(true);
    if (!report.available) return;
    expect(report.probe.python).toMatch(/^3\.\d+/);
    const numpy = report.probe.libraries.numpy;
    expect(numpy).toMatchObject({ found: true, version: expect.stringMatching(/^\d+\.\d+/) });
    const torch = report.probe.libraries.torch;
    if (torch && !torch.found) expect(torch.reason).toMatch(/torch/);
  });

  it('answers requests that come together one after the other (a probe while a series samples), and stays alive', async () => {
    const w = await PeerWorker.start({ ...process.env, GPU_LAB_PYTHON: 'python3' });
    started.push(w);
    const answers = await Promise.all([1, 2, 3].map(() => w.call({ call: 'probe', libraries: ['numpy'] }, 60_000)));
    expect(answers.map((a) => a.ok)).toEqual([true, true, true]);
    expect(w.alive).toBe(true);
  });

  it('says there is no interpreter when the one named does not exist, naming it', async () => {
    const report = await probePeers(['numpy'], { ...process.env, GPU_LAB_PYTHON: join(dir, 'no-such-python') });
    expect(report).toMatchObject({ available: false, reason: expect.stringContaining('no-such-python') });
  });

  it('says what an interpreter that exits at once wrote, even where its last words arrive after it has gone', async () => {
    // A wrapper that exits first while a child it started still writes to the shared stderr, as a shell wrapper or a
    // launcher does: the reason must be read to the end of stderr, not only up to the wrapper's exit.
    const late = join(dir, 'python-late-words');
    writeFileSync(late, '#!/bin/sh\n( sleep 0.3; echo "this is python-late-words, broken" >&2 ) &\nexit 3\n');
    chmodSync(late, 0o755);
    const report = await probePeers(['numpy'], { ...process.env, GPU_LAB_PYTHON: late });
    expect(report).toMatchObject({ available: false, reason: expect.stringContaining('this is python-late-words, broken') });
    if (!report.available) expect(report.reason).toContain('code 3');
  });

  it('reports a module that is missing, and one whose import crashes, each with its reason', async () => {
    const missing = stubPython('python-no-numpy', "import sys\nsys.modules['numpy'] = None");
    const a = await probePeers(['numpy'], { ...process.env, GPU_LAB_PYTHON: missing });
    expect(a.available && a.probe.libraries.numpy).toMatchObject({ found: false, kind: 'missing', reason: expect.stringContaining('not installed') });
    // Said in the reader's language, with Python's own words inside.
    const why = peerWaivedWhy(a, 'numpy');
    expect(why && labMessage(why, 'es')).toMatch(/^numpy no está instalado para \S+ \(/);
    const crashing = stubPython(
      'python-broken-numpy',
      "import sys, types\nclass Broken:\n    def find_spec(self, name, path=None, target=None):\n        if name == 'numpy': raise RuntimeError('numpy was built for another Python')\nsys.meta_path.insert(0, Broken())",
    );
    const b = await probePeers(['numpy'], { ...process.env, GPU_LAB_PYTHON: crashing });
    expect(b.available && b.probe.libraries.numpy).toMatchObject({ found: false, kind: 'broken', reason: expect.stringContaining('numpy was built for another Python') });
    const broken = peerWaivedWhy(b, 'numpy');
    expect(broken && labMessage(broken, 'es')).toMatch(/no puede importar numpy: RuntimeError: numpy was built for another Python/);
  });

  it('fails a request, and stops the worker, when the worker prints something that is not the protocol', async () => {
    const noisy = join(dir, 'python-noisy');
    writeFileSync(noisy, '#!/bin/sh\necho \'{"ready": true, "python": "3.x", "pid": 1}\'\nread line\necho "Welcome to my numpy fork!"\nsleep 30\n');
    chmodSync(noisy, 0o755);
    const w = await PeerWorker.start({ ...process.env, GPU_LAB_PYTHON: noisy });
    started.push(w);
    await expect(w.call({ call: 'probe', libraries: ['numpy'] }, 10_000)).rejects.toMatchObject({ code: 'PEER_FAILED', message: expect.stringContaining('not the protocol') });
    expect(w.alive).toBe(false);
  });

  it('stops a worker that does not answer in time, with TIMEOUT', async () => {
    const hung = join(dir, 'python-hung');
    writeFileSync(hung, '#!/bin/sh\necho \'{"ready": true, "python": "3.x", "pid": 1}\'\nsleep 30\n');
    chmodSync(hung, 0o755);
    const w = await PeerWorker.start({ ...process.env, GPU_LAB_PYTHON: hung });
    started.push(w);
    await expect(w.call({ call: 'probe', libraries: ['numpy'] }, 300)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(w.alive).toBe(false);
    await expect(w.call({ call: 'release' }, 300)).rejects.toMatchObject({ code: 'TIMEOUT' });
  });
});

const LINE_BREAKS = new Set(['\n', '\r', '\u2028', '\u2029', '\u0085', '\u000b', '\u000c', '\u001c', '\u001d', '\u001e']);

// The worker started by hand, its stdio ours.
function rawWorker(): { send: (line: string) => void; next: () => Promise<string>; exited: Promise<number | null>; close: () => void } {
  const proc = spawn('python3', ['-m', 'gpu_lab_peers'], { env: { ...process.env, PYTHONPATH: peersDir() ?? '' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout });
  const queue: string[] = [];
  const waiting: ((l: string) => void)[] = [];
  lines.on('line', (l) => {
    const w = waiting.shift();
    if (w) w(l);
    else queue.push(l);
  });
  return {
    send: (line) => proc.stdin.write(`${line}\n`),
    next: () => new Promise((resolve) => (queue.length ? resolve(queue.shift() ?? '') : waiting.push(resolve))),
    exited: new Promise((resolve) => proc.once('exit', (code) => resolve(code))),
    close: () => proc.stdin.end(),
  };
}

describe('the worker\'s protocol', () => {
  it('answers every line, whatever it holds, with one answer of the protocol, and keeps working', async () => {
    const w = rawWorker();
    expect(JSON.parse(await w.next())).toMatchObject({ ready: true });
    const lines = fc.sample(
      fc.oneof(
        // One line each: without the characters Python's text reader also takes for line breaks.
        fc.string({ maxLength: 200 }).map((s) => [...s].map((ch) => (LINE_BREAKS.has(ch) ? ' ' : ch)).join('')),
        fc.json().map((j) => j.replace(/\n/g, ' ')),
        fc.record({ id: fc.integer(), call: fc.constantFrom('prepare', 'sample', 'output', 'probe', 'nope'), warmup: fc.anything(), count: fc.anything(), inputs: fc.anything() }).map((o) => JSON.stringify(o)),
      ),
      { numRuns: 150, seed: 26 },
    );
    for (const line of lines) {
      w.send(line);
      const answer = PEER_ANSWER.parse(JSON.parse(await w.next()));
      // Nothing here is a valid, answerable request: each is refused, with a reason.
      if (answer.ok) expect(line).toMatch(/"call":"probe"/);
      else expect(answer.error.message.length).toBeGreaterThan(0);
    }
    w.send(JSON.stringify({ id: 7, call: 'probe', libraries: ['numpy'] }));
    expect(JSON.parse(await w.next())).toMatchObject({ id: 7, ok: true });
    w.close();
    // It exits by itself once its stdin closes: it dies with the host that started it, however that one ends.
    expect(await w.exited).toBe(0);
  });
});

// A prepared NumPy workload on real files, as the engine shares its inputs: `elements` fp64 values each.
function vectorFiles(elements: number): { inputs: { path: string; dtype: 'fp64'; length: number }[]; output: { path: string; dtype: 'fp64'; length: number } } {
  const inputs = [0, 1].map((i) => {
    const path = join(dir, `vf-${elements}-${i}.bin`);
    writeFileSync(path, new Uint8Array(Float64Array.from({ length: elements }, (_, j) => (j % 7) - 3 + i).buffer));
    return { path, dtype: 'fp64' as const, length: elements };
  });
  return { inputs, output: { path: join(dir, `vf-${elements}-out.bin`), dtype: 'fp64', length: elements } };
}

describe('the worker\'s clocks and batches', () => {
  const prepare = (extra: Record<string, unknown>, elements = 1000) => ({ call: 'prepare' as const, op: 'vector-function' as const, code: 'numpy-notebook', device: 'cpu', params: { a: 2, b: 3, c: 1 }, ...vectorFiles(elements), ...extra });

  it('repeats a call shorter than the minimum sample inside one sample, and says how many calls each sample holds', async () => {
    const w = await PeerWorker.start({ ...process.env, GPU_LAB_PYTHON: 'python3' });
    started.push(w);
    await w.call(prepare({ minSampleMs: 5 }), 60_000);
    const answer = await w.call({ call: 'sample', warmup: 1, count: 4 }, 60_000);
    expect(answer.executionsPerSample).toBeGreaterThan(1);
    // Each sample is the mean of its calls: a thousand-element expression takes far less than the 5 ms minimum.
    for (const ms of answer.samplesMs as number[]) expect(ms).toBeLessThan(5);
    await w.call(prepare({}), 60_000);
    expect((await w.call({ call: 'sample', warmup: 0, count: 1 }, 60_000)).executionsPerSample).toBe(1);
  });

  it('sizes the batch from a warmed call of the warm-up, where it is far longer than the minimum sample, with no call more', async () => {
    const w = await PeerWorker.start({ ...process.env, GPU_LAB_PYTHON: 'python3' });
    started.push(w);
    // 200 000 elements: a call of a millisecond or more, against a minimum of 10 µs.
    await w.call(prepare({ minSampleMs: 0.01 }, 200_000), 60_000);
    expect(await w.call({ call: 'sample', warmup: 2, count: 3 }, 60_000)).toMatchObject({ executionsPerSample: 1, untimedCalls: 2 });
    // One warm-up is the first call alone, not a warmed one: a call more sizes the batch.
    await w.call(prepare({ minSampleMs: 0.01 }, 200_000), 60_000);
    expect(await w.call({ call: 'sample', warmup: 1, count: 3 }, 60_000)).toMatchObject({ executionsPerSample: 1, untimedCalls: 2 });
    // A short call against a 5 ms minimum: sized on a call of its own, many calls a sample.
    await w.call(prepare({ minSampleMs: 5 }), 60_000);
    const short = await w.call({ call: 'sample', warmup: 2, count: 2 }, 60_000);
    expect(short.untimedCalls).toBe(3);
    expect(short.executionsPerSample).toBeGreaterThan(1);
  });

  it('refuses a GPU clock for a CPU workload, and a clock or a minimum it does not know, naming the field and what it takes', async () => {
    const w = await PeerWorker.start({ ...process.env, GPU_LAB_PYTHON: 'python3' });
    started.push(w);
    await expect(w.call(prepare({ clock: 'events' }), 60_000)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/runs on the CPU: its only clock is host, not events/) });
    const raw = rawWorker();
    expect(JSON.parse(await raw.next())).toMatchObject({ ready: true });
    for (const [field, value, said] of [['clock', 'sundial', /`clock` must be one of events, host, host-nosync, time-time, not 'sundial'/], ['minSampleMs', -1, /`minSampleMs` must be a number from 0 to 1000, not -1/]] as const) {
      raw.send(JSON.stringify({ id: 3, ...prepare({ [field]: value }) }));
      const answer = PEER_ANSWER.parse(JSON.parse(await raw.next()));
      expect(answer.ok).toBe(false);
      if (!answer.ok) expect(answer.error.message).toMatch(said);
    }
    raw.close();
    expect(await raw.exited).toBe(0);
  });

  it('reads every dtype the engine stores, in the engine’s words — fp16, bf16 as raw bits, int8 — and refuses one it does not', async () => {
    const raw = rawWorker();
    expect(JSON.parse(await raw.next())).toMatchObject({ ready: true });
    for (const dtype of ['fp16', 'bf16', 'int8']) {
      // A known workload on the wrong device: the arrays are checked and accepted first, then the device refused.
      raw.send(JSON.stringify({ id: 4, ...prepare({ inputs: [{ path: join(dir, 'x.bin'), dtype, length: 4 }], code: 'torch-fp16', op: 'gemm' }) }));
      const answer = PEER_ANSWER.parse(JSON.parse(await raw.next()));
      expect(answer.ok === false && answer.error.message, dtype).toMatch(/runs on a CUDA device, not cpu/);
    }
    raw.send(JSON.stringify({ id: 5, ...prepare({ inputs: [{ path: join(dir, 'x.bin'), dtype: 'complex64', length: 4 }] }) }));
    const bad = PEER_ANSWER.parse(JSON.parse(await raw.next()));
    expect(bad.ok === false && bad.error.message).toMatch(/inputs\[0\]\.dtype` must be one of fp64, fp32, fp16, bf16, int8, not 'complex64'/);
    raw.close();
  });
});

describe('the worker\'s inputs kept between points', () => {
  const prepare = (files: ReturnType<typeof vectorFiles>) => ({ call: 'prepare' as const, op: 'vector-function' as const, code: 'numpy-notebook', device: 'cpu', params: { a: 2, b: 3, c: 1 }, ...files });
  // What the notebook's expression gives on the files' values: x = (j % 7) − 3, y = x + 1.
  const expected = (j: number): number => 2 * ((j % 7) - 3) ** 2 + 3 * ((j % 7) - 2) + 1;

  it('keeps the arrays of the files the engine keeps, reads again those it lets go, and computes the same on either', async () => {
    const w = await PeerWorker.start({ ...process.env, GPU_LAB_PYTHON: 'python3' });
    started.push(w);
    const files = vectorFiles(997);
    const [x, y] = files.inputs.map((i) => i.path);
    const outputs: number[][] = [];
    const point = async (keep: string[]): Promise<number> => {
      const answer = await w.call(prepare(files), 60_000);
      await w.call({ call: 'sample', warmup: 0, count: 1 }, 60_000);
      await w.call({ call: 'output', indices: [0, 5, 996] }, 60_000);
      const bytes = readFileSync(files.output.path);
      outputs.push([...new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))]);
      await w.call({ call: 'release', keep }, 60_000);
      return answer.reusedInputs as number;
    };
    expect(await point([x ?? '', y ?? ''])).toBe(0);
    expect(await point([x ?? ''])).toBe(2);
    expect(await point([])).toBe(1);
    expect(await point([])).toBe(0);
    for (const out of outputs) expect(out).toEqual([0, 5, 996].map(expected));
  });
});
