// A class's kernel runs on a real GPU: three students send a kernel at once through the class's queue; each runs,
// one at a time, is verified, and is its student's alone (listed for them, not found for another). The queue's order
// is tested on its own (tests/unit/classroom/). Run: node --test tests/gpu/classroom-kernels.test.ts
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { createLabHost } from '../../main/app/lab-host.ts';
import { Classroom } from '../../main/classroom/classroom.ts';
import { nvrtcInfo } from '../../native/index.ts';
import { skipWithoutGpu } from './helpers.ts';

const nvrtc = nvrtcInfo();
const skip = skipWithoutGpu || (nvrtc.available ? false : `no NVRTC here (${nvrtc.reason ?? 'unknown'})`);
const SAXPY = readFileSync(fileURLToPath(new URL('../../shaders/playground/saxpy.starter.cu', import.meta.url)), 'utf8');

describe('a class’s kernel runs', { skip }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-gpu-class-'));
  const host = createLabHost({ dataDir, supervisor: { log: () => undefined }, warn: () => undefined, lockDir: join(dataDir, 'locks') });
  after(() => host.close(1000));

  it('run one at a time, each verified and its student’s alone', async () => {
    const classroom = await Classroom.open({ host, dataDir, name: 'GPU class' });
    const students = [];
    for (const name of ['Ana', 'Bob', 'Cleo']) students.push(await classroom.join(name));
    let running = 0;
    let mostAtOnce = 0;
    const order: string[] = [];
    classroom.queue.onDidChange(() => {
      const view = classroom.queue.view({ role: 'teacher' }, () => null);
      running = view.entries.filter((e) => e.state === 'running').length;
      mostAtOnce = Math.max(mostAtOnce, running);
      for (const e of view.entries) if (!order.includes(e.id)) order.push(e.id);
    });
    const apis = students.map((s) => classroom.apiFor({ role: 'student', id: s.studentId }));
    const runs = await Promise.all(apis.map((api) => api.playground.runKernel({ exercise: 'saxpy', source: SAXPY, size: 1 << 20, compare: false })));
    assert.equal(mostAtOnce, 1, 'more than one kernel run ran at once');
    assert.equal(order.length, 3);
    for (const [i, run] of runs.entries()) {
      assert.equal(run.status, 'verified', `${students[i]?.name}'s run: ${JSON.stringify(run.error)}`);
      const api = apis[i];
      assert.ok(api);
      assert.deepEqual((await api.playground.listKernelRuns()).map((r) => r.id), [run.id]);
      const other = apis[(i + 1) % apis.length];
      assert.ok(other);
      await assert.rejects(other.playground.getKernelRun(run.id), { code: 'NOT_FOUND' });
    }
    classroom.dispose();
  });
});
