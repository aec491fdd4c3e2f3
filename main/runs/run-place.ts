// Where a run ran, as its record keeps it: the machine's name, the Slurm job and task it ran in (gpu-lab batch puts
// runs of many nodes in one shared folder: these tell them apart, and `gpu-lab batch status` finds a job's runs by
// them), and the GPU it measured on. Each is read from what the machine itself says, never from a request.
import type { DeviceList } from '../common/devices.ts';
import { SLURM_IDS, type SlurmIds } from '../common/run-record.ts';

type Env = Record<string, string | undefined>;

// A whole number as Slurm writes its ids, or null.
function count(text: string | undefined): number | null {
  return text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : null;
}

// The ids of the Slurm job this process runs in, or undefined outside one. An array's task is its own job for
// Slurm (SLURM_JOB_ID differs from task to task); the id a person has is the array's, the one sbatch printed.
export function slurmIds(env: Env): SlurmIds | undefined {
  const jobId = env.SLURM_ARRAY_JOB_ID ?? env.SLURM_JOB_ID;
  if (jobId === undefined) return undefined;
  const ids = {
    jobId,
    arrayTaskId: env.SLURM_ARRAY_JOB_ID === undefined ? null : count(env.SLURM_ARRAY_TASK_ID),
    stepId: env.SLURM_STEP_ID !== undefined && /^\d{1,12}$/.test(env.SLURM_STEP_ID) ? env.SLURM_STEP_ID : null,
    node: env.SLURMD_NODENAME || null,
    cluster: env.SLURM_CLUSTER_NAME || null,
  };
  // An environment that only looks like Slurm's (a hand-set variable) records nothing rather than a wrong id.
  const parsed = SLURM_IDS.safeParse(ids);
  return parsed.success ? parsed.data : undefined;
}

// The record's field for the Slurm job this process runs in, where it has one (the machine itself is the record's
// runnerHost: engine/process-identity.ts).
export function runPlace(env: Env = process.env): { slurm?: SlurmIds } {
  const slurm = slurmIds(env);
  return slurm ? { slurm } : {};
}

// The UUID of the device a run measured on, as the device list carries it from the CUDA runtime; null for the CPU
// or a list that does not say.
export function gpuUuidOf(devices: DeviceList | null, device: string): string | null {
  const uuid = devices?.devices.find((d) => d.id === device && d.kind === 'cuda')?.details.uuid;
  return typeof uuid === 'string' && uuid !== '' ? uuid : null;
}
