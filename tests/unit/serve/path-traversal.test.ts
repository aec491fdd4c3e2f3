// Paths in requests, over serve mode's WebSocket to a real lab host: the only path a request may name is a kernel
// source some lab lists, and a run id names a record in the data folder's runs/ and nothing else. Every way out of
// those (.., absolute paths, encodings, NUL, backslashes, the addon itself) is refused with a code, reads nothing and
// deletes nothing; the legitimate ones still work, so the refusals are not an API that answers nothing.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { labDescriptors } from '../../../main/labs/index.ts';
import { kernelFiles } from '../../../main/sources/kernel-sources.ts';
import { createLabHost } from '../../../main/app/lab-host.ts';
import { startServer } from '../../../main/serve/server.ts';
import type { RunningServer } from '../../../main/serve/server.ts';
import { storedRunsFolder } from './fuzz-cases.ts';
import { openApiSocket } from './ws-client.ts';
import type { ApiClient } from './ws-client.ts';

const data = storedRunsFolder();
// Records and secrets beside and above runs/, where a traversal would land.
const SECRET = 'the-canary-of-this-test';
writeFileSync(join(data.dataDir, 'secret.json'), readFileSync(join(data.dataDir, 'runs', `${data.runIds[0] ?? ''}.json`)));
writeFileSync(join(data.dataDir, 'secret.txt'), SECRET);
const labHost = createLabHost({ dataDir: data.dataDir, supervisor: { log: () => undefined }, warn: () => undefined });
const staticDir = mkdtempSync(join(tmpdir(), 'gpu-lab-traversal-web-'));
writeFileSync(join(staticDir, 'index.html'), '<!doctype html>');
let server: RunningServer;
let client: ApiClient;
let nextId = 0;

beforeAll(async () => {
  server = await startServer({ api: labHost, staticDir, port: 0, token: 'traversal' });
  client = await openApiSocket(server.port, 'traversal');
});
afterAll(async () => {
  client.ws.close();
  await server.close();
  await labHost.dispose();
});

async function call(method: string, ...args: unknown[]): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  const id = ++nextId;
  client.ws.send(JSON.stringify({ id, method, args }));
  for (;;) {
    const frame = await client.next();
    if (frame === null) throw new Error('the socket closed');
    if (frame.id === id) return frame as { ok: boolean };
  }
}

const PATHS_OUT = [
  '../../../../../../etc/passwd',
  '/etc/passwd',
  'shaders/cuda/../../package.json',
  'shaders/cuda/sgemm.cu/../../../package.json',
  'native/cpu/../../package.json',
  'shaders%2Fcuda%2F..%2F..%2Fpackage.json',
  '..\\..\\package.json',
  'shaders/cuda/sgemm.cu\u0000.txt',
  './shaders/cuda/sgemm.cu',
  'shaders//cuda/sgemm.cu',
  'native/build/Release/gpu_lab.node',
  'package.json',
  '../secret.txt',
  'file:///etc/passwd',
];

const RUN_IDS_OUT = ['../secret', '..', '.', '../runs/../secret', '/etc/passwd', 'a/b', 'a\\b', '%2e%2e%2fsecret', 'secret\u0000', '..%2fsecret', `${'../'.repeat(10)}etc/passwd`];

describe('paths in requests', () => {
  it('reads every kernel source a lab lists, and nothing else whatever the path', async () => {
    for (const file of kernelFiles(labDescriptors())) {
      expect(await call('labs.kernelSource', file), file).toMatchObject({ ok: true, value: { file } });
    }
    for (const path of PATHS_OUT) {
      const answer = await call('labs.kernelSource', path);
      expect(answer.ok, path).toBe(false);
      expect(['NOT_FOUND', 'INVALID_ARGUMENT'], path).toContain(answer.error?.code);
      expect(JSON.stringify(answer), path).not.toMatch(/root:|"name": ?"gpu-lab"|the-canary/);
    }
  });

  it('reads, exports and deletes runs in runs/ only, by id', async () => {
    expect(await call('runs.getRun', data.runIds[0])).toMatchObject({ ok: true, value: { id: data.runIds[0] } });
    for (const runId of RUN_IDS_OUT) {
      for (const [method, ...rest] of [['runs.getRun'], ['runs.exportRun', 'json'], ['runs.getRunProgress'], ['runs.cancelRun'], ['runs.deleteRun']] as const) {
        const answer = await call(method, runId, ...rest);
        expect(answer.ok, `${method} ${runId}`).toBe(false);
        expect(['NOT_FOUND', 'INVALID_ARGUMENT'], `${method} ${runId}`).toContain(answer.error?.code);
        expect(JSON.stringify(answer)).not.toContain(SECRET);
      }
    }
    expect(existsSync(join(data.dataDir, 'secret.json'))).toBe(true);
    expect(existsSync(join(data.dataDir, 'secret.txt'))).toBe(true);
    expect((await call('runs.listRuns')).value).toHaveLength(data.runIds.length);
  });
});
