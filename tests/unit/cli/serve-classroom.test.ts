// `gpu-lab serve --classroom NAME` as a teacher starts it: the teacher's link and the class link, with distinct
// tokens, each opening its own seat; the class kept for the next start under the same name, refused under another;
// HTTPS with --tls-cert and --tls-key; a plain warning that tokens travel in clear on an address other machines reach
// without them; and every misuse of the new options refused as bad input (exit 2), naming the option.
// tests/fixtures/tls/ holds a self-signed certificate for 127.0.0.1 made for these tests only (openssl req -x509
// -newkey rsa:2048 -nodes -days 36500 -subj /CN=127.0.0.1 -addext "subjectAltName=IP:127.0.0.1,DNS:localhost").
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
const tls = fileURLToPath(new URL('../../fixtures/tls/', import.meta.url));
const env = { ...process.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

interface Started {
  stdout: string;
  stderr: string;
  stop(): Promise<number | null>;
}

// Starts the server and waits for the class link (or its exit).
async function serve(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await Promise.race([
    exited,
    new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (/\?class=[\w-]+/.test(stdout) && stdout.includes('Ctrl+C')) {
          clearInterval(poll);
          // The warnings follow the links on stderr.
          setTimeout(resolve, 200);
        }
      }, 50);
    }),
  ]);
  return {
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

function get(url: URL): Promise<{ status: number; location: string | undefined; cookie: string }> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { ca: readFileSync(join(tls, 'cert.pem')) }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location, cookie: String(res.headers['set-cookie'] ?? '') });
    });
    req.on('error', reject);
    req.end();
  });
}

const linkOf = (text: string, kind: 'token' | 'class'): URL => new URL(new RegExp(`https?://\\S+\\?${kind}=[\\w-]+`).exec(text)?.[0] ?? 'http://missing');

describe('gpu-lab serve --classroom', () => {
  it('prints the teacher’s link and the class link, with distinct tokens, each opening its own seat', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-serve-class-'));
    const server = await serve(['--classroom', 'HPC 2026', '--data-dir', dataDir, '--max-points', '50']);
    try {
      expect(server.stdout).toContain('GPU Lab is serving the class "HPC 2026" on http://127.0.0.1:');
      expect(server.stdout).toContain('plan at most\n50 points');
      const teacher = linkOf(server.stdout, 'token');
      const students = linkOf(server.stdout, 'class');
      const teacherToken = teacher.searchParams.get('token') ?? '';
      const classToken = students.searchParams.get('class') ?? '';
      expect(teacherToken.length).toBeGreaterThanOrEqual(32);
      expect(classToken.length).toBeGreaterThanOrEqual(32);
      expect(teacherToken).not.toBe(classToken);
      const port = teacher.port;
      expect(await get(teacher)).toMatchObject({ status: 303, location: '/', cookie: expect.stringContaining(`gpulab_teacher_${port}=`) });
      expect(await get(students)).toMatchObject({ status: 303, location: '/?as=student', cookie: expect.stringContaining(`gpulab_class_${port}=`) });
      expect(server.stderr).not.toContain('in clear');
      expect(await server.stop()).toBe(0);
      // Started again: new links, the class and its caps as they were.
      const again = await serve(['--classroom', 'HPC 2026', '--data-dir', dataDir]);
      expect(linkOf(again.stdout, 'token').searchParams.get('token')).not.toBe(teacherToken);
      expect(again.stdout).toContain('plan at most\n50 points');
      expect(await again.stop()).toBe(0);
      // Under another name, the folder's class is not written over.
      const other = spawnSync(process.execPath, [bin, 'serve', '--port', '0', '--data-dir', dataDir, '--classroom', 'Another'], { env, encoding: 'utf8' });
      expect(other.status).toBe(2);
      expect(other.stderr).toContain('holds the class "HPC 2026", not "Another"');
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('says plainly that tokens travel in clear on an address other machines reach, and not over HTTPS', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-serve-class-'));
    const plain = await serve(['--classroom', 'HPC', '--data-dir', dataDir, '--host', '0.0.0.0']);
    expect(plain.stderr).toContain('is plain HTTP on an address other machines reach: the tokens (the teacher’s, the students’) travel in clear');
    await plain.stop();
    const secure = await serve(['--classroom', 'HPC', '--data-dir', dataDir, '--host', '0.0.0.0', '--tls-cert', join(tls, 'cert.pem'), '--tls-key', join(tls, 'key.pem')]);
    try {
      expect(secure.stderr).not.toContain('in clear');
      const teacher = linkOf(secure.stdout, 'token');
      expect(teacher.protocol).toBe('https:');
      const answer = await get(teacher);
      expect(answer).toMatchObject({ status: 303, location: '/' });
      expect(answer.cookie).toMatch(/HttpOnly; SameSite=Strict; Secure/);
    } finally {
      await secure.stop();
    }
  }, 60_000);

  it.each([
    [['--tls-cert', 'cert.pem'], '--tls-cert and --tls-key go together'],
    [['--max-points', '5'], '--max-points sets a cap of a class: it goes with --classroom NAME'],
    [['--classroom', 'X', '--max-seconds', 'soon'], '--max-seconds must be an integer from 10 to 86400, not "soon"'],
    [['--classroom', 'X', '--max-bytes', '12'], '--max-bytes must be an integer from 1024 to'],
    [['--classroom', ' '], 'The class name " " is not allowed'],
  ])('refuses %j as bad input, naming the option', (args, said) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-serve-class-'));
    const r = spawnSync(process.execPath, [bin, 'serve', '--port', '0', '--data-dir', dataDir, ...args], { env, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(said);
  });
});
