// Captures what a real Slurm prints into tests/fixtures/slurm/, for the parsers' tests (slurm-output.test.ts):
// starts a one-node Slurm (slurm-cluster.ts), submits real `gpu-lab batch` jobs and keeps squeue's lines as they
// change, the job-completion file, a --nodes job's log, and what sbatch, squeue, sacct and scontrol say besides.
// As root, after `npm run build:ts`:
//
//   node tests/unit/cli/support/capture-slurm-fixtures.ts tests/fixtures/slurm
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { squeueArgs } from '../../../../main/cli/slurm-output.ts';
import { startSlurm } from './slurm-cluster.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: capture-slurm-fixtures.ts OUT_DIR');
mkdirSync(out, { recursive: true });
const bin = fileURLToPath(new URL('../../../../bin/gpu-lab.js', import.meta.url));
const cluster = await startSlurm();
const env = { ...process.env, ...cluster.env, LANG: 'C.UTF-8', LANGUAGE: '', LC_ALL: '' };
const run = (command: string, args: string[]) => spawnSync(command, args, { env, encoding: 'utf8' });
const save = (name: string, text: string) => writeFileSync(join(out, name), text);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function submit(dataDir: string, args: string[]): string {
  const r = run(process.execPath, [bin, 'batch', '--slurm', '--data-dir', dataDir, '--peers', 'none', ...args]);
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

// squeue's lines for a job until none is pending or running, each different snapshot once.
async function follow(job: string, keep: (snapshot: string, i: number) => void, onChange?: (snapshot: string) => void): Promise<void> {
  let last = '';
  for (let i = 0; ; ) {
    const snapshot = run('squeue', squeueArgs(job)).stdout;
    if (snapshot !== last) {
      keep(snapshot, i++);
      onChange?.(snapshot);
      last = snapshot;
    }
    if (snapshot.trim() && !/\|(PENDING|RUNNING|CONFIGURING|COMPLETING)\|/.test(snapshot)) return;
    await sleep(300);
  }
}

try {
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-capture-'));
  // Three tasks on two cores: the third waits (Resources), and is cancelled while it waits.
  const array = submit(dataDir, ['--labs', 'vector-function', '--array', '3', '--param', 'elements=4000000', '--param', 'repeats=10']);
  let cancelled = false;
  await follow(
    array,
    (s, i) => save(`squeue-array-${i}.txt`, s),
    (s) => {
      if (!cancelled && /_2\|PENDING\|\|Resources/.test(s)) {
        run('scancel', [`${array}_2`]);
        cancelled = true;
      }
    },
  );
  const failed = submit(dataDir, ['--labs', 'vector-function', '--array', '2', '--device', 'cuda:99']);
  await follow(failed, (s, i) => save(`squeue-failed-${i}.txt`, s));
  const nodes = submit(dataDir, ['--labs', 'vector-function', '--nodes', cluster.node, '--param', 'elements=100000']);
  await follow(nodes, (s, i) => save(`squeue-nodes-${i}.txt`, s));
  copyFileSync(join(dataDir, 'batch', `slurm-${nodes}.out`), join(out, 'nodes-job.out'));
  await sleep(1000);
  copyFileSync(cluster.jobcompFile, join(out, 'jobcomp.txt'));
  const refused = run('sbatch', ['--parsable', '--partition=no-such-partition', '--wrap', 'true']);
  save('sbatch-refused.txt', refused.stderr);
  save('sbatch-parsable.txt', run('sbatch', ['--parsable', '--output=/dev/null', '--wrap', 'true']).stdout);
  save('squeue-unknown-job.txt', run('squeue', squeueArgs('999999')).stderr);
  save('sacct-no-accounting.txt', run('sacct', ['--jobs', array]).stderr);
  save('scontrol-config.txt', run('scontrol', ['show', 'config']).stdout);
  save('jobs.json', `${JSON.stringify({ array, failed, nodes, node: cluster.node, jobcompFile: cluster.jobcompFile }, null, 2)}\n`);
} finally {
  await cluster.stop();
}
