// `gpu-lab serve --classroom "HPC 2026"` as a teacher starts it (the built CLI, a fresh data folder, any free port),
// with the teacher's link and the class link it prints; stopped with Ctrl+C's signal.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';

export interface ClassServe {
  teacher: URL;
  classLink: URL;
  // The folder of the devices' locks the class's server takes: a test holds a device there as another program would.
  lockDir: string;
  output: () => string;
  stop(): Promise<void>;
}

export async function startClass(): Promise<ClassServe> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-e2e-class-'));
  // Devices' locks of its own: another program measuring on this machine must not hold up the class's runs here.
  const lockDir = mkdtempSync(join(tmpdir(), 'gpu-lab-e2e-class-locks-'));
  const env = { ...process.env, GPU_LAB_LOCK_DIR: lockDir };
  const child: ChildProcess = spawn(process.execPath, ['bin/gpu-lab.js', 'serve', '--port', '0', '--data-dir', dataDir, '--classroom', 'HPC 2026'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  const links = await new Promise<[URL, URL]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no links in 30 s:\n${text}`)), 30_000);
    const poll = setInterval(() => {
      const teacher = /http:\/\/\S+\?token=[\w-]+/.exec(text);
      const classLink = /http:\/\/\S+\?class=[\w-]+/.exec(text);
      if (!teacher || !classLink) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve([new URL(teacher[0]), new URL(classLink[0])]);
    }, 50);
  });
  return {
    teacher: links[0],
    classLink: links[1],
    lockDir,
    output: () => text,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
    },
  };
}

// A student joins from the class link: the join page, a name, and the student's app with the class's bar.
export async function joinAs(page: Page, serve: ClassServe, name: string): Promise<void> {
  await page.goto(serve.classLink.href);
  expect(new URL(page.url()).search).toBe('?as=student');
  await expect(page.getByTestId('join-page')).toBeVisible();
  await page.getByLabel(/Your name|Tu nombre/).fill(name);
  await page.getByRole('button', { name: /^(Join|Unirme)$/ }).click();
  await expect(page.getByTestId('class-bar')).toBeVisible();
}
