// Starts `gpu-lab serve` as a user would (the built CLI, a fresh data folder, any free port) and reads the link it
// prints; stops it with Ctrl+C's signal.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServeProcess {
  url: string;
  origin: string;
  token: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

export async function startServe(options: { dataDir?: string; args?: string[] } = {}): Promise<ServeProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gpu-lab-e2e-'));
  return watch(spawn(process.execPath, ['bin/gpu-lab.js', 'serve', '--port', '0', '--data-dir', dataDir, ...(options.args ?? [])], { stdio: ['ignore', 'pipe', 'pipe'] }), dataDir);
}

// The recorded H100 session (support/recorded-server.ts): a GPU's inspector and runs on a machine without one.
export async function startRecordedH100(): Promise<ServeProcess> {
  return watch(spawn(process.execPath, ['tests/e2e/support/recorded-server.ts'], { stdio: ['ignore', 'pipe', 'pipe'] }), '');
}

async function watch(child: ChildProcess, dataDir: string): Promise<ServeProcess> {
  let text = '';
  child.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gpu-lab serve printed no link in 30 s:\n${text}`)), 30_000);
    const poll = setInterval(() => {
      const m = /http:\/\/\S+\?token=[\w-]+/.exec(text);
      if (!m) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve(new URL(m[0]));
    }, 50);
    child.on('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`gpu-lab serve exited with ${code}:\n${text}`));
    });
  });
  return {
    url: url.href,
    origin: url.origin,
    token: url.searchParams.get('token') ?? '',
    dataDir,
    output: () => text,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
    },
  };
}

// A data folder holding the recorded CPU-only runs (tests/fixtures/runs/cpu-*.json), each under its own id, as the
// run store keeps them.
export function seededDataDir(prefix = 'cpu-'): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-e2e-seeded-'));
  mkdirSync(join(dataDir, 'runs'));
  const fixtures = join('tests', 'fixtures', 'runs');
  for (const name of readdirSync(fixtures).filter((n) => n.startsWith(prefix))) {
    const { id } = JSON.parse(readFileSync(join(fixtures, name), 'utf8')) as { id: string };
    copyFileSync(join(fixtures, name), join(dataDir, 'runs', `${id}.json`));
  }
  return dataDir;
}
