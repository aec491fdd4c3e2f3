// The playground's door on a machine with a GPU and NVRTC, tried as a hostile token holder would: a file holding a
// secret sits on the machine, and sources name it in every spelling. Over serve mode every one is refused with
// INVALID_ARGUMENT before NVRTC sees it. Behind the door, the second layer is tried alone: the native compile and
// the compute host are handed the hostile source directly (skipping the check), and the secret must reach neither
// the compiler log nor the diagnostics nor the answer nor the stored run.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import type { KernelRun } from '../../main/common/playground.ts';
import { createLabHost } from '../../main/app/lab-host.ts';
import type { LabHost } from '../../main/app/lab-host.ts';
import { startServer } from '../../main/serve/server.ts';
import type { RunningServer } from '../../main/serve/server.ts';
import { compileKernel, cudaInventory, nvrtcInfo } from '../../native/index.ts';
import { includeSpellings, otherSpellings } from '../unit/serve/hostile-sources.ts';
import { call, openApiSocket } from '../unit/serve/ws-client.ts';
import type { ApiClient } from '../unit/serve/ws-client.ts';
import { skipWithoutGpu } from './helpers.ts';

const nvrtc = nvrtcInfo();
const skip = skipWithoutGpu || (nvrtc.available ? false : `no NVRTC here (${nvrtc.reason ?? 'unknown'})`);
const root = join(import.meta.dirname, '..', '..');

// Not C++: NVRTC reports an error on its first line, and EDG echoes the line it is about.
const SECRET = 'gpu_lab_secret_4f9c2e hunter2 : root : x';
const secretDir = mkdtempSync(join(tmpdir(), 'gpu-lab-secret-'));
const secretFile = join(secretDir, 'secret.txt');
writeFileSync(secretFile, `${SECRET}\nsecond_secret_line_77 = ;\n`);

const SAXPY = '__global__ void saxpy(int n, float a, const float* x, const float* y, float* out) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = a * x[i] + y[i];\n}\n';

// Hostile sources that still compile as far as the include: each puts the secret file's text in front of NVRTC.
const behindTheDoor = [
  `#include "${secretFile}"\n${SAXPY}`,
  `/**/#include "${secretFile}"\n${SAXPY}`,
  `%:include "${secretFile}"\n${SAXPY}`,
  `${SAXPY.replace('if (i < n)', `float v = 0\n#include "${secretFile}"\n;\n  if (i < n)`)}`,
];

function leaks(text: string): boolean {
  return text.includes('gpu_lab_secret_4f9c2e') || text.includes('hunter2') || text.includes('second_secret_line_77');
}

describe('the playground door with a GPU', { skip }, () => {
  let host: LabHost;
  let server: RunningServer;
  let client: ApiClient;
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-door-'));

  before(async () => {
    host = createLabHost({ dataDir, warn: () => undefined, supervisor: { log: () => undefined } });
    const staticDir = mkdtempSync(join(tmpdir(), 'gpu-lab-door-web-'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>GPU Lab</title>');
    server = await startServer({ api: host, staticDir, port: 0, token: 'door' });
    client = await openApiSocket(server.port, 'door');
  });
  after(async () => {
    client.ws.close();
    await server.close();
    await host.dispose();
  });

  it('over serve mode, refuses every spelling naming the secret file with INVALID_ARGUMENT, and echoes nothing of it', async () => {
    const sources = [...includeSpellings(secretFile, 300), ...otherSpellings(secretFile, 'FOUND'), ...behindTheDoor];
    const wrong: string[] = [];
    for (const source of sources) {
      const answer = await call(client, 'playground.runKernel', [{ exercise: 'saxpy', source }]);
      const text = JSON.stringify(answer);
      if (answer.ok !== false || (answer.error as { code?: string }).code !== 'INVALID_ARGUMENT' || leaks(text)) wrong.push(`${JSON.stringify(source)} → ${text.slice(0, 300)}`);
    }
    assert.deepEqual(wrong, []);
    // The door is not shut on students: the starter still compiles, verifies and is timed.
    const starter = readFileSync(join(root, 'shaders/playground/saxpy.starter.cu'), 'utf8');
    const ok = await call(client, 'playground.runKernel', [{ exercise: 'saxpy', source: starter, compare: false }]);
    assert.equal((ok.value as KernelRun | undefined)?.status, 'verified', JSON.stringify(ok).slice(0, 500));
  });

  it('NVRTC called directly on a source that includes the secret returns a log without it', () => {
    const device = cudaInventory().devices[0];
    assert.ok(device);
    const arch = `sm_${device.computeCapability.replace('.', '')}`;
    for (const source of behindTheDoor) {
      const compiled = compileKernel({ source, fileName: 'saxpy.cu', entry: 'saxpy', arch });
      assert.equal(compiled.ok, false, 'the secret is not C++: the compile fails');
      assert.equal(leaks(compiled.log), false, compiled.log);
      assert.match(compiled.log, /about a file other than saxpy\.cu (was|were) left out/);
    }
  });

  it('the compute host handed the source directly answers, and stores, nothing of the secret', async () => {
    for (const [k, source] of behindTheDoor.entries()) {
      const size = 1 << 20;
      const result = await host.supervisor.runKernel({
        exercise: 'saxpy',
        device: 'cuda:0',
        size,
        source,
        fileName: 'saxpy.cu',
        launch: { grid: [size / 256, 1, 1], block: [256, 1, 1] },
        compare: false,
        references: [],
        seed: 7,
        listings: [],
      });
      assert.equal(result.compile.ok, false);
      assert.equal(leaks(JSON.stringify(result)), false, JSON.stringify(result.compile));
      const run: KernelRun = {
        id: `door-${k}`,
        exercise: 'saxpy',
        createdAt: new Date().toISOString(),
        source,
        request: { exercise: 'saxpy', source, device: 'cuda:0', compare: false },
        status: 'compile-error',
        result,
        error: null,
      };
      await host.kernels.save(run);
    }
    for (const name of readdirSync(host.kernels.runsDir)) {
      const stored = readFileSync(join(host.kernels.runsDir, name), 'utf8');
      // The source the student sent names the file; what the compiler said about it is what must not leak.
      const parsed = JSON.parse(stored) as KernelRun;
      assert.equal(leaks(JSON.stringify(parsed.result)), false, `${name}: ${JSON.stringify(parsed.result?.compile)}`);
    }
    for (const summary of await host.playground.listKernelRuns()) {
      const read = await host.playground.getKernelRun(summary.id);
      assert.equal(leaks(JSON.stringify(read.result)), false);
    }
  });
});
