// Serve mode never lets a page choose the Python interpreter: a token holder who could name one could make the
// server run any program. Over a real lab host whose interpreter is the server's (GPU_LAB_PYTHON, as `gpu-lab serve
// --python` sets it): every way a page might try — the desktop app's methods, made-up setters, an interpreter slipped
// into a run request or passed to the probe, the desktop's IPC channel names, an HTTP request other than GET — is
// refused, and the probe still names the server's interpreter. `gpu-lab serve --python` itself refuses a path that
// is no file.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createLabHost } from '../../../main/app/lab-host.ts';
import type { LabHost } from '../../../main/app/lab-host.ts';
import { API_METHODS } from '../../../main/common/contract/index.ts';
import { DESKTOP_METHODS, desktopChannel } from '../../../main/common/desktop-api.ts';
import { PYTHON_ENV } from '../../../main/common/peer-protocol.ts';
import { startServer } from '../../../main/serve/server.ts';
import type { RunningServer } from '../../../main/serve/server.ts';
import { call, openApiSocket } from './ws-client.ts';
import type { ApiClient } from './ws-client.ts';

const root = mkdtempSync(join(tmpdir(), 'gpu-lab-serve-python-'));
const staticDir = join(root, 'web');
writeFileSync(join(root, 'server-python'), '#!/bin/sh\necho "the server\'s interpreter" >&2\nexit 3\n');
chmodSync(join(root, 'server-python'), 0o755);
// What a page would like the server to run.
const evil = join(root, 'evil');
const ran = join(root, 'evil-ran');
writeFileSync(evil, `#!/bin/sh\ntouch ${JSON.stringify(ran)}\nexit 3\n`);
chmodSync(evil, 0o755);

const launchPython = process.env[PYTHON_ENV];
let lab: LabHost;
let server: RunningServer;
let client: ApiClient;

beforeAll(async () => {
  // The server's interpreter, as `gpu-lab serve --python` sets it for the compute host to inherit.
  process.env[PYTHON_ENV] = join(root, 'server-python');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>GPU Lab</title>');
  lab = createLabHost({ dataDir: join(root, 'data'), supervisor: { log: () => undefined }, warn: () => undefined });
  server = await startServer({ api: lab, staticDir, port: 0 });
  client = await openApiSocket(server.port, server.token);
});

afterAll(async () => {
  client.ws.close();
  await server.close();
  await lab.dispose();
  if (launchPython === undefined) delete process.env[PYTHON_ENV];
  else process.env[PYTHON_ENV] = launchPython;
  rmSync(root, { recursive: true, force: true });
});

function http(method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path: `${path}?token=${server.token}`, method, headers: { host: `127.0.0.1:${server.port}`, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ python: evil }));
  });
}

describe('serve mode and the Python interpreter', () => {
  it('has no method that sets anything about Python: the probe is the only one, and takes no argument', () => {
    expect(API_METHODS.filter((m) => /python|interpreter|setting|desktop/i.test(m))).toEqual(['devices.inspectPython']);
  });

  const attempts: [string, unknown[]][] = [
    ...DESKTOP_METHODS.map((m): [string, unknown[]] => [`desktop.${m}`, [evil]]),
    ...DESKTOP_METHODS.map((m): [string, unknown[]] => [desktopChannel(m), [evil]]),
    ['settings.setPython', [evil]],
    ['devices.setPython', [evil]],
    ['devices.choosePython', []],
    ['app.setSettings', [{ python: evil }]],
  ];
  it.each(attempts)('answers %s with UNKNOWN_METHOD', async (method, args) => {
    expect(await call(client, method, args)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
  });

  it('refuses an interpreter passed to the probe or slipped into a run request', async () => {
    expect(await call(client, 'devices.inspectPython', [evil])).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining('takes 0 argument(s)') } });
    expect(await call(client, 'runs.startRun', [{ lab: 'vector-function', device: 'cpu', python: evil }])).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { field: 'python' } } });
    expect(await call(client, 'runs.startRun', [{ lab: 'vector-function', device: 'cpu', peers: [evil] }])).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
  });

  it.each([
    ['POST', '/api'],
    ['POST', '/api/settings'],
    ['PUT', '/settings'],
    ['PATCH', '/api/desktop/setPython'],
  ])('answers %s %s with 405: the server takes nothing but GET and HEAD', async (method, path) => {
    expect(await http(method, path)).toBe(405);
  });

  it('still probes the server’s interpreter, and never ran the page’s', async () => {
    const report = await call(client, 'devices.inspectPython', []);
    expect(report).toMatchObject({ ok: true, value: { interpreter: join(root, 'server-python'), available: false, source: 'environment' } });
    expect(existsSync(ran)).toBe(false);
    expect(readdirSync(join(root, 'data')).includes('settings.json')).toBe(false);
  });
});

describe('gpu-lab serve --python', () => {
  const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));

  it('refuses a path that is no file, before it serves anything', () => {
    const r = spawnSync(process.execPath, [bin, 'serve', '--port', '0', '--python', join(root, 'no-such-python')], { encoding: 'utf8', env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: '', LANGUAGE: '' }, timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`--python: expected a Python interpreter (a file, or a name found in PATH) but received "${join(root, 'no-such-python')}"`);
    expect(r.stdout).not.toContain('token=');
  });
});
