// Slurm's own commands, run as a person would at the login node (sbatch, squeue, sacct, scontrol, found on PATH,
// with SLURM_CONF and the rest of this environment): their output, or their words when they refuse. GPU Lab speaks
// to Slurm only through these, never to its daemons.
import { spawn } from 'node:child_process';

export type SlurmCommand = 'sbatch' | 'squeue' | 'sacct' | 'scontrol';

export type SlurmAnswer =
  | { ok: true; stdout: string; stderr: string }
  // missing: the command is not on PATH (not a Slurm machine). words: what it said on stderr (else stdout), trimmed.
  | { ok: false; missing: boolean; exitCode: number | null; words: string };

// An answer longer than this is not one of these commands' (squeue of one job is a line a task).
const MAX_OUTPUT_BYTES = 16 << 20;
// The controller answers in seconds; one that does not is down, and the client says so itself after its own timeout.
const TIMEOUT_MS = 120_000;
// Slurm's words as they are printed back: enough lines to hold the reason, never a screenful.
const MAX_WORDS = 2000;

export function slurmWords(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_WORDS ? `${trimmed.slice(0, MAX_WORDS)}…` : trimmed;
}

export function runSlurm(command: SlurmCommand, args: readonly string[], input?: string): Promise<SlurmAnswer> {
  return new Promise((settle) => {
    const child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    // Not spawn's own timeout: its timer outlives a command that never started, and would hold this process open.
    const timer = setTimeout(() => child.kill('SIGTERM'), TIMEOUT_MS);
    const resolve = (answer: SlurmAnswer): void => {
      clearTimeout(timer);
      settle(answer);
    };
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let bytes = 0;
    let tooLong = false;
    const keep = (into: Buffer[]) => (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_OUTPUT_BYTES) {
        tooLong = true;
        child.kill('SIGKILL');
        return;
      }
      into.push(chunk);
    };
    child.stdout.on('data', keep(out));
    child.stderr.on('data', keep(err));
    // A command that could not be started (not on PATH) never closes: its error is the answer.
    child.on('error', (e: NodeJS.ErrnoException) => {
      resolve({ ok: false, missing: e.code === 'ENOENT', exitCode: null, words: `${command}: ${e.message}` });
    });
    // A command that exits before reading its input (a missing one, a refusal) closes the pipe: not an error here.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
    child.on('close', (code, signal) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (tooLong) {
        resolve({ ok: false, missing: false, exitCode: null, words: `${command} wrote more than ${MAX_OUTPUT_BYTES >> 20} MiB; stopped` });
      } else if (code === 0) {
        resolve({ ok: true, stdout, stderr });
      } else {
        const said = slurmWords(stderr) || slurmWords(stdout);
        resolve({ ok: false, missing: false, exitCode: code, words: said || `${command} ${signal ? `was killed by ${signal}` : `exited with ${code}`} and said nothing` });
      }
    });
  });
}
