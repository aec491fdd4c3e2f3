// The playground's door as a token holder meets it: a real serve-mode server over a real lab host, and
// playground.runKernel sent over the WebSocket with every hostile spelling of the security report and the generated
// ones. Each must be answered INVALID_ARGUMENT naming the line and column, before any device is looked for, so that
// the answer is the same on a machine with a GPU (tests/gpu/playground-door.test.ts sends the same there) and here.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createLabHost } from '../../../main/app/lab-host.ts';
import { startServer } from '../../../main/serve/server.ts';
import type { RunningServer } from '../../../main/serve/server.ts';
import { includeSpellings, otherSpellings } from './hostile-sources.ts';
import { call, openApiSocket } from './ws-client.ts';
import type { ApiClient } from './ws-client.ts';

const TOKEN = 'door-token';
const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-door-'));
const labHost = createLabHost({ dataDir, supervisor: { log: () => undefined }, warn: () => undefined });
const staticDir = mkdtempSync(join(tmpdir(), 'gpu-lab-door-web-'));
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>GPU Lab</title>');
let server: RunningServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startServer({ api: labHost, staticDir, port: 0, token: TOKEN });
  client = await openApiSocket(server.port, TOKEN);
});
afterAll(async () => {
  client.ws.close();
  await server.close();
  await labHost.dispose();
});

const runKernel = (source: string): Promise<Record<string, unknown>> => call(client, 'playground.runKernel', [{ exercise: 'saxpy', source }]);

describe('playground.runKernel over serve mode', () => {
  it('refuses every hostile spelling with INVALID_ARGUMENT, naming the line and column', async () => {
    const sources = [...includeSpellings('/etc/passwd', 300), ...otherSpellings('/etc/passwd', 'FOUND')];
    const wrong: string[] = [];
    for (const source of sources) {
      const answer = await runKernel(source);
      const error = answer.error as { code?: string; message?: string; details?: { line?: number; column?: number } } | undefined;
      const named = typeof error?.details?.line === 'number' && typeof error.details.column === 'number' && /line \d+, column \d+/.test(error.message ?? '');
      if (answer.ok !== false || error?.code !== 'INVALID_ARGUMENT' || !named) wrong.push(`${JSON.stringify(source)} → ${JSON.stringify(answer)}`);
    }
    expect(wrong).toEqual([]);
    expect(sources.length).toBeGreaterThan(300);
  }, 120_000);

  it('lets an exercise’s own starter through the door, to the device check', async () => {
    const answer = await runKernel('#define BLOCK 256\n__global__ void saxpy(int n, float a, const float* x, const float* y, float* out) {}\n');
    // This machine has no GPU: the request passed the source check and failed on the device, not at the door.
    const error = answer.error as { code?: string } | undefined;
    expect(answer.ok === true || error?.code !== 'INVALID_ARGUMENT').toBe(true);
  }, 60_000);
});
