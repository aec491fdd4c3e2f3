// The command-line launcher the deb puts on PATH (build-resources/linux/gpu-lab), run in an app folder laid out as
// installed whose binary is a fake that reports how it was started. Reached through the links dpkg makes
// (/usr/bin/gpu-lab → /etc/alternatives/gpu-lab → the launcher), in a folder with a space as "/opt/GPU Lab", it
// starts that binary in its own process (exec: the same pid, so signals and the exit code are the app's) as the
// command, headless, with the sandbox off for root only, the user's arguments after `--` exactly as typed and the
// environment as it was.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { installedCliArgs } from '../../../main/cli/installed.ts';
import { repoRoot } from './support/packaged-app.ts';

const root = mkdtempSync(join(tmpdir(), 'gpu-lab-launcher-'));
const appDir = join(root, 'opt', 'GPU Lab');
mkdirSync(join(appDir, 'resources', 'bin'), { recursive: true });
mkdirSync(join(root, 'etc', 'alternatives'), { recursive: true });
mkdirSync(join(root, 'usr', 'bin'), { recursive: true });
copyFileSync(join(repoRoot, 'build-resources', 'linux', 'gpu-lab'), join(appDir, 'resources', 'bin', 'gpu-lab'));
// The app's binary, faked: its pid, its user, an environment variable, then each argument on a line of its own (NUL
// ends each, so that an empty argument or one with a newline is seen as it is); it exits with FAKE_EXIT.
writeFileSync(join(appDir, 'gpu-lab'), `#!/bin/sh\necho "$$"\nid -u\necho "$GPU_LAB_PROBE"\nprintf '%s\\0' "$@"\nexit "\${FAKE_EXIT:-0}"\n`);
symlinkSync(join(appDir, 'resources', 'bin', 'gpu-lab'), join(root, 'etc', 'alternatives', 'gpu-lab'));
symlinkSync(join(root, 'etc', 'alternatives', 'gpu-lab'), join(root, 'usr', 'bin', 'gpu-lab'));
// Another user must be able to read and run it all, as they can /opt and /usr/bin.
for (const dir of [root, join(root, 'opt'), appDir, join(appDir, 'resources'), join(appDir, 'resources', 'bin')]) chmodSync(dir, 0o755);
for (const file of [join(appDir, 'gpu-lab'), join(appDir, 'resources', 'bin', 'gpu-lab')]) chmodSync(file, 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const onPath = join(root, 'usr', 'bin', 'gpu-lab');
const NOBODY = 65534;
const canSwitchUser = process.getuid?.() === 0 && spawnSync('setpriv', ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', 'true']).status === 0;

interface Started {
  status: number | null;
  launcherPid: number;
  pid: number;
  uid: number;
  probe: string;
  argv: string[];
}

// `gpu-lab args` from PATH, as this user or, given a uid, as that one.
function gpuLab(args: string[], options: { uid?: number; env?: Record<string, string> } = {}): Started {
  const [command, commandArgs] =
    options.uid === undefined ? [onPath, args] : ['setpriv', ['--reuid', String(options.uid), '--regid', String(options.uid), '--clear-groups', onPath, ...args]];
  const r = spawnSync(command, commandArgs, { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', GPU_LAB_PROBE: 'kept', ...options.env } });
  const [pid = '', uid = '', probe = '', ...rest] = r.stdout.split('\n');
  const argv = rest.join('\n').split('\0').slice(0, -1);
  return { status: r.status, launcherPid: r.pid ?? -1, pid: Number(pid), uid: Number(uid), probe, argv };
}

describe('the gpu-lab launcher', () => {
  it('starts the app’s binary in its own process as the headless command, the arguments after `--` as typed', () => {
    const args = ['run', 'matmul', '--param', 'n=64', '--lang', 'es', 'two words', '', 'a\nline', '--', '--no-sandbox'];
    const started = gpuLab(args);
    expect(started.status).toBe(0);
    // setpriv also execs: as root, as here, the pid is the launcher's either way.
    expect(started.pid).toBe(started.launcherPid);
    expect(started.probe).toBe('kept');
    const asRoot = process.getuid?.() === 0;
    expect(started.argv).toEqual(['--gpu-lab-cli', '--ozone-platform=headless', ...(asRoot ? ['--no-sandbox'] : []), '--', ...args]);
    // What the app then reads of it (main/cli/installed.ts): the command's arguments, nothing else.
    expect(installedCliArgs(['/opt/GPU Lab/gpu-lab', ...started.argv])).toEqual(args);
  });

  it('exits with the app’s exit code', () => {
    expect(gpuLab(['devices'], { env: { FAKE_EXIT: '75' } }).status).toBe(75);
  });

  it.skipIf(process.getuid?.() !== 0)('turns the sandbox off for root, which Chromium refuses to start it for', () => {
    const started = gpuLab(['devices']);
    expect(started.uid).toBe(0);
    expect(started.argv.slice(0, started.argv.indexOf('--'))).toContain('--no-sandbox');
  });

  it.skipIf(!canSwitchUser)('keeps the sandbox for any other user', () => {
    const started = gpuLab(['devices', '--json'], { uid: NOBODY });
    expect(started.status).toBe(0);
    expect(started.uid).toBe(NOBODY);
    expect(started.pid).toBe(started.launcherPid);
    expect(started.argv).toEqual(['--gpu-lab-cli', '--ozone-platform=headless', '--', 'devices', '--json']);
  });
});
