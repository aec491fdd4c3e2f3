// app://gpu-lab/… over a renderer build in a temporary folder: files served with their content type and the CSP,
// and nothing outside the folder, nothing unknown, no other host.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { appProtocolHandler } from '../../../main/electron/app-protocol.ts';
import { CONTENT_SECURITY_POLICY } from '../../../main/serve/static-files.ts';

let outside: string;
let serve: (request: Request) => Promise<Response>;

beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), 'gpu-lab-app-protocol-'));
  const web = join(outside, 'web');
  await mkdir(join(web, 'assets'), { recursive: true });
  await writeFile(join(web, 'index.html'), '<!doctype html><title>GPU Lab</title>');
  await writeFile(join(web, 'assets', 'index-1a2b.js'), 'console.log(1)');
  await writeFile(join(web, 'assets', 'index-1a2b.css'), 'body{}');
  await writeFile(join(outside, 'secret.txt'), 'the user key');
  serve = appProtocolHandler(web);
});
afterAll(() => rm(outside, { recursive: true, force: true }));

const get = (url: string, method = 'GET'): Promise<Response> => serve(new Request(url, { method }));

describe('app:// protocol', () => {
  it('serves the page with its type and the CSP', async () => {
    for (const url of ['app://gpu-lab/index.html', 'app://gpu-lab/']) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(await res.text()).toContain('<title>GPU Lab</title>');
    }
  });

  it('serves scripts and styles with the types a browser runs them under', async () => {
    const js = await get('app://gpu-lab/assets/index-1a2b.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get('app://gpu-lab/assets/index-1a2b.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers 404, with the CSP, for a path that leaves the build folder', async () => {
    for (const url of ['app://gpu-lab/..%2fsecret.txt', 'app://gpu-lab/assets/..%2f..%2fsecret.txt', 'app://gpu-lab/%2e%2e/secret.txt', 'app://gpu-lab/..%5csecret.txt']) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(await res.text()).not.toContain('the user key');
    }
  });

  it('answers 404 for an unknown file, another host, or a write', async () => {
    expect((await get('app://gpu-lab/assets/missing.js')).status).toBe(404);
    expect((await get('app://gpu-lab/assets')).status).toBe(404);
    expect((await get('app://other-app/index.html')).status).toBe(404);
    expect((await get('app://gpu-lab/index.html', 'POST')).status).toBe(404);
  });
});
