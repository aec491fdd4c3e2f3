// Where a run ran, as its record keeps it: the host, the Slurm ids read from the environment a real Slurm gives a
// task (tests/fixtures/slurm/env-*.txt, captured from Debian's slurm-wlm 22.05), the GPU's UUID; records written
// before these fields load as they are; and a run left running on another host is not judged interrupted here.
import { mkdtempSync, readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { RUN_RECORD, type RunRecord } from '../../../main/common/run-record.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';
import type { DeviceList } from '../../../main/common/devices.ts';
import { thisMachine } from '../../../main/engine/process-identity.ts';
import { gpuUuidOf, runPlace, slurmIds } from '../../../main/runs/run-place.ts';
import { RunStore } from '../../../main/runs/run-store.ts';
import { createLabHost } from '../../../main/app/lab-host.ts';

const fixture = (name: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(new URL(`../../fixtures/slurm/${name}`, import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

function recordOf(name: string): RunRecord {
  return STORED_RECORD.parse(JSON.parse(readFileSync(fileURLToPath(new URL(`../../fixtures/runs/${name}`, import.meta.url)), 'utf8')));
}

describe('where a run ran', () => {
  it('reads an array task\'s ids as Slurm sets them: the array\'s job id (the one sbatch printed), not the task\'s own', () => {
    const env = fixture('env-array-task.txt');
    expect(env.SLURM_JOB_ID).not.toBe(env.SLURM_ARRAY_JOB_ID);
    expect(slurmIds(env)).toEqual({ jobId: env.SLURM_ARRAY_JOB_ID, arrayTaskId: Number(env.SLURM_ARRAY_TASK_ID), stepId: null, node: 'vm', cluster: 'gpulabtest' });
  });

  it('reads a --nodes job\'s step on its node: no array task, the step and the node', () => {
    const env = fixture('env-node-step.txt');
    expect(slurmIds(env)).toEqual({ jobId: env.SLURM_JOB_ID, arrayTaskId: null, stepId: '0', node: 'vm', cluster: 'gpulabtest' });
  });

  it('records nothing of Slurm outside a job, and nothing wrong from a variable that only looks like Slurm\'s', () => {
    expect(slurmIds({ HOME: '/root' })).toBeUndefined();
    expect(runPlace({})).toEqual({});
    expect(slurmIds({ SLURM_JOB_ID: '12; rm -rf /' })).toBeUndefined();
    expect(slurmIds({ SLURM_JOB_ID: '12', SLURMD_NODENAME: 'a node with spaces' })).toBeUndefined();
  });

  it('names the GPU by the UUID its device list carries, and no GPU for the CPU', () => {
    const devices: DeviceList | null = recordOf('h100-vector-function.json').environment.devices;
    const gpu = devices?.devices.find((d) => d.kind === 'cuda');
    expect(gpu?.details.uuid).toMatch(/^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(gpuUuidOf(devices, gpu?.id ?? '')).toBe(gpu?.details.uuid);
    expect(gpuUuidOf(devices, 'cpu')).toBeNull();
    expect(gpuUuidOf(null, 'cuda:0')).toBeNull();
  });

  it('loads a record written before these fields, and refuses a Slurm field that is not Slurm\'s form', () => {
    const old = recordOf('cpu-vector-function.json');
    expect(old.environment.slurm).toBeUndefined();
    const bad = { ...old, environment: { ...old.environment, slurm: { jobId: 'x', arrayTaskId: 0, stepId: null, node: null, cluster: null } } };
    expect(RUN_RECORD.safeParse(bad).success).toBe(false);
  });

  it('records the host, the Slurm ids and no GPU on a real run on the CPU', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, fixture('env-array-task.txt'));
    const host = createLabHost({ dataDir: mkdtempSync(join(tmpdir(), 'gpu-lab-place-')) });
    try {
      const { runId } = await host.runs.startRun({ lab: 'vector-function', device: 'cpu', params: { elements: 1000, repeats: 2 }, peers: [] });
      await host.runs.whenIdle();
      const record = await host.runs.getRun(runId);
      expect(record.status).toBe('completed');
      expect(record.environment.runnerHost?.name).toBe(hostname());
      expect(record.environment.slurm).toEqual({ jobId: '1', arrayTaskId: 0, stepId: null, node: 'vm', cluster: 'gpulabtest' });
      expect(record.environment.gpuUuid).toBeNull();
    } finally {
      process.env = saved;
      await host.dispose();
    }
  });

  it('leaves a run left running on another host as it is: only that host can tell whether it still runs', async () => {
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'gpu-lab-place-')));
    const base = recordOf('cpu-vector-function.json');
    // A pid no process here has: on this host, the run would be judged interrupted.
    const elsewhere = { ...base, id: 'on-a-node', status: 'running' as const, environment: { ...base.environment, runnerPid: 2 ** 22 + 7, runnerHost: { name: `${hostname()}-node01`, machineId: null, bootId: null } } };
    const here = { ...elsewhere, id: 'on-this-host', environment: { ...elsewhere.environment, runnerHost: thisMachine() } };
    await store.save(elsewhere);
    await store.save(here);
    expect((await store.get('on-a-node')).status).toBe('running');
    expect((await store.get('on-this-host')).error?.code).toBe('RUN_INTERRUPTED');
    const onDisk = JSON.parse(readFileSync(join(store.dir, 'on-a-node.json'), 'utf8')) as RunRecord;
    expect(onDisk.status).toBe('running');
  });
});
