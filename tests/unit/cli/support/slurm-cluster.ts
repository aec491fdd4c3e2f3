// A one-node Slurm of this machine's own, for the tests: munged as the munge user, slurmctld and slurmd as root,
// from Debian's slurm-wlm and munge (scripts/bootstrap.sh installs them), every file of theirs in a temporary folder
// (key, sockets, state, spool, logs, pid files, the job-completion file), on ports of their own, so that nothing of
// the machine's is touched and a Slurm the machine may run is not disturbed. The facts it rests on:
// /work/shared/recipes/webgpu-and-slurm.md. `stop()` stops the daemons it started, by their pid files.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

const DAEMONS = ['munged', 'slurmctld', 'slurmd'];
const CLIENTS = ['sbatch', 'squeue', 'sacct', 'scontrol', 'sinfo', 'scancel', 'srun', 'munge'];

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function inSbin(command: string): boolean {
  return ['/usr/sbin', '/usr/bin', '/sbin'].some((dir) => existsSync(join(dir, command)));
}

// Why a Slurm cannot be started here, or null where it can: it needs root (slurmd starts jobs as their users, munged
// must run as munge), Linux, and the packages.
export function slurmUnavailable(): string | null {
  if (process.platform !== 'linux') return `Slurm's daemons run on Linux; this is ${process.platform}`;
  if (process.getuid?.() !== 0) return 'starting slurmctld, slurmd and munged needs root (run the tests as root, as CI does)';
  const missing = [...DAEMONS.filter((d) => !inSbin(d)), ...CLIENTS.filter((c) => !onPath(c))];
  if (missing.length) return `Slurm is not installed (missing ${missing.join(', ')}): scripts/bootstrap.sh installs slurm-wlm and munge as root`;
  if (spawnSync('id', ['-u', 'munge'], { encoding: 'utf8' }).status !== 0) return 'there is no munge user (the munge package makes it)';
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface SlurmCluster {
  dir: string;
  // The node's name in Slurm (this machine's short host name).
  node: string;
  // What a client needs to reach this Slurm: SLURM_CONF.
  env: Record<string, string>;
  jobcompFile: string;
  // The daemons' logs, for a failing test to print.
  logs(): string;
  stop(): Promise<void>;
}

function pidOf(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 1 ? pid : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopByPidFile(file: string): Promise<void> {
  const pid = pidOf(file);
  if (pid === null || !alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

async function until(what: string, check: () => boolean, timeoutMs: number, logs: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s\n${logs()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// `minJobAge`: how long the controller keeps an ended job for squeue (Slurm's default is 300 s).
export async function startSlurm(options: { minJobAge?: number } = {}): Promise<SlurmCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-slurm-'));
  chmodSync(dir, 0o755);
  const munge = join(dir, 'munge');
  mkdirSync(munge);
  const uid = Number(execFileSync('id', ['-u', 'munge'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'munge'], { encoding: 'utf8' }).trim());
  // munged refuses a socket folder others cannot enter, and a key anyone but munge can read.
  chownSync(munge, uid, gid);
  chmodSync(munge, 0o755);
  const key = join(munge, 'munge.key');
  writeFileSync(key, randomBytes(1024), { mode: 0o400 });
  chownSync(key, uid, gid);
  const socket = join(munge, 'munge.socket');
  for (const sub of ['state', 'spool', 'log']) mkdirSync(join(dir, sub));
  const jobcompFile = join(dir, 'jobcomp.txt');
  const logFiles = [join(munge, 'munged.log'), join(dir, 'log', 'slurmctld.log'), join(dir, 'log', 'slurmd.log')];
  const logs = (): string => logFiles.map((f) => `--- ${f}\n${existsSync(f) ? readFileSync(f, 'utf8').split('\n').slice(-30).join('\n') : '(none)'}`).join('\n');
  const pidFiles = [join(dir, 'slurmd.pid'), join(dir, 'slurmctld.pid'), join(munge, 'munged.pid')];
  const stop = async (): Promise<void> => {
    // Jobs still running end with their node: cancelled first, so that no task outlives the test.
    spawnSync('scancel', ['--full', '--user', 'root'], { env: { ...process.env, SLURM_CONF: join(dir, 'slurm.conf') }, stdio: 'ignore', timeout: 10_000 });
    for (const file of pidFiles) await stopByPidFile(file);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const munged = spawnSync(
      '/usr/sbin/munged',
      [`--socket=${socket}`, `--key-file=${key}`, `--pid-file=${join(munge, 'munged.pid')}`, `--log-file=${logFiles[0]}`, `--seed-file=${join(munge, 'munged.seed')}`],
      { uid, gid, encoding: 'utf8', timeout: 30_000 },
    );
    if (munged.status !== 0) throw new Error(`munged did not start: ${munged.stderr}`);
    // The node as slurmd sees it: its CPUs, sockets, cores and memory (UpTime is no setting).
    const nodeLine = execFileSync('/usr/sbin/slurmd', ['-C'], { encoding: 'utf8' }).split('\n')[0]?.trim() ?? '';
    const node = /^NodeName=(\S+)/.exec(nodeLine)?.[1] ?? hostname().split('.')[0] ?? 'localhost';
    const conf = join(dir, 'slurm.conf');
    writeFileSync(
      conf,
      [
        'ClusterName=gpulabtest',
        `SlurmctldHost=${node}`,
        `SlurmctldPort=${await freePort()}`,
        `SlurmdPort=${await freePort()}`,
        'SlurmUser=root',
        'SlurmdUser=root',
        'AuthType=auth/munge',
        'CredType=cred/munge',
        `AuthInfo=socket=${socket}`,
        'ProctrackType=proctrack/linuxproc',
        'TaskPlugin=task/none',
        'SelectType=select/cons_tres',
        'SelectTypeParameters=CR_Core_Memory',
        // Without it each task is given all the node's memory, and array tasks run one at a time.
        'DefMemPerCPU=500',
        `MinJobAge=${options.minJobAge ?? 300}`,
        `StateSaveLocation=${join(dir, 'state')}`,
        `SlurmdSpoolDir=${join(dir, 'spool')}`,
        `SlurmctldPidFile=${pidFiles[1]}`,
        `SlurmdPidFile=${pidFiles[0]}`,
        `SlurmctldLogFile=${logFiles[1]}`,
        `SlurmdLogFile=${logFiles[2]}`,
        'JobCompType=jobcomp/filetxt',
        `JobCompLoc=${jobcompFile}`,
        'ReturnToService=2',
        'MpiDefault=none',
        `${nodeLine} State=UNKNOWN`,
        `PartitionName=debug Nodes=${node} Default=YES MaxTime=INFINITE State=UP`,
        '',
      ].join('\n'),
    );
    const env = { SLURM_CONF: conf };
    const clientEnv = { ...process.env, ...env };
    await until('munge answering', () => spawnSync('sh', ['-c', `munge -S '${socket}' -n | unmunge -S '${socket}'`], { stdio: 'ignore' }).status === 0, 15_000, logs);
    for (const daemon of ['slurmctld', 'slurmd']) {
      const started = spawnSync(`/usr/sbin/${daemon}`, ['-f', conf], { env: clientEnv, encoding: 'utf8', timeout: 30_000 });
      if (started.status !== 0) throw new Error(`${daemon} did not start: ${started.stderr}\n${logs()}`);
    }
    await until('the node idle in sinfo', () => /idle/.test(spawnSync('sinfo', ['-h', '-o', '%T'], { env: clientEnv, encoding: 'utf8' }).stdout ?? ''), 60_000, logs);
    return { dir, node, env, jobcompFile, logs, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
