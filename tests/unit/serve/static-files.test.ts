// Serve mode's static files over a real server: compressed with brotli or gzip as the browser's Accept-Encoding asks,
// the bytes a browser decompresses the same as the file's; as they are for a client that asks for neither and for
// files that come compressed already (PNG); vite's hashed assets cached for a year, the page asked for again on each
// load; a file rebuilt under a running server served anew.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { GpuLabApi } from '../../../main/common/contract/index.ts';
import { negotiateEncoding } from '../../../main/serve/encoded-files.ts';
import { startServer } from '../../../main/serve/server.ts';
import type { RunningServer } from '../../../main/serve/server.ts';

const TOKEN = 'static-files-token';
const staticDir = mkdtempSync(join(tmpdir(), 'gpu-lab-static-'));
mkdirSync(join(staticDir, 'assets'));
// Text as a bundle is: long, repetitive enough to compress, not one byte repeated.
const bundle = Array.from({ length: 3000 }, (_, i) => `export function f${i}(x) { return x * ${i} + ${(i * 7919) % 1000}; }\n`).join('');
const files = {
  page: join(staticDir, 'index.html'),
  script: join(staticDir, 'assets', 'index-SQwB9H2v.js'),
  unhashed: join(staticDir, 'assets', 'app.js'),
  image: join(staticDir, 'assets', 'logo-Ab12Cd34.png'),
};
writeFileSync(files.page, `<!doctype html><title>GPU Lab</title><script type="module" src="./assets/index-SQwB9H2v.js"></script>${'<p>GPU Lab</p>'.repeat(200)}`);
writeFileSync(files.script, bundle);
writeFileSync(files.unhashed, bundle);
writeFileSync(files.image, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(4096)]));

// The files are what this test is about; the API is only what the server needs to start.
const api = { runs: { onDidChangeRun: () => ({ dispose: () => undefined }) }, classroom: { onDidChangeQueue: () => ({ dispose: () => undefined }) } } as unknown as GpuLabApi;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ api, staticDir, port: 0, token: TOKEN });
});
afterAll(async () => {
  await server.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(path: string, acceptEncoding?: string, method = 'GET'): Promise<Answer> {
  const headers: Record<string, string> = { host: `127.0.0.1:${server.port}`, cookie: `gpulab_token_${server.port}=${TOKEN}` };
  if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

// What a browser reads after undoing the Content-Encoding.
function decoded(answer: Answer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  expect(encoding).toBeUndefined();
  return answer.body;
}

describe('serve mode sends its files compressed', () => {
  it('sends brotli to a browser that takes it, a third of the size, and the same bytes once decompressed', async () => {
    for (const [path, file] of [['/', files.page], ['/assets/index-SQwB9H2v.js', files.script]] as const) {
      const answer = await get(path, 'gzip, deflate, br, zstd');
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-encoding'], path).toBe('br');
      expect(answer.headers.vary, path).toBe('Accept-Encoding');
      expect(Number(answer.headers['content-length']), path).toBe(answer.body.length);
      expect(answer.body.length, path).toBeLessThan(readFileSync(file).length / 3);
      expect(decoded(answer).equals(readFileSync(file)), path).toBe(true);
    }
  });

  it('sends gzip to a client that takes gzip only, or prefers it', async () => {
    for (const accept of ['gzip', 'gzip;q=1, br;q=0.5', 'br;q=0, gzip', 'x-gzip, gzip']) {
      const answer = await get('/assets/index-SQwB9H2v.js', accept);
      expect(answer.headers['content-encoding'], accept).toBe('gzip');
      expect(decoded(answer).equals(readFileSync(files.script)), accept).toBe(true);
    }
  });

  it('sends the file as it is to a client that accepts no compression, still saying the answer varies with it', async () => {
    for (const accept of [undefined, '', 'identity', 'deflate', 'br;q=0, gzip;q=0', '*;q=0']) {
      const answer = await get('/assets/index-SQwB9H2v.js', accept);
      expect(answer.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(answer.headers.vary, String(accept)).toBe('Accept-Encoding');
      expect(answer.body.equals(readFileSync(files.script)), String(accept)).toBe(true);
      expect(Number(answer.headers['content-length']), String(accept)).toBe(readFileSync(files.script).length);
    }
  });

  it('sends an image that comes compressed as it is, whatever the browser takes', async () => {
    const answer = await get('/assets/logo-Ab12Cd34.png', 'gzip, deflate, br');
    expect(answer.headers['content-type']).toBe('image/png');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary).toBeUndefined();
    expect(answer.body.equals(readFileSync(files.image))).toBe(true);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const [head, body] = [await get('/', 'br', 'HEAD'), await get('/', 'br')];
    expect(head.body.length).toBe(0);
    for (const name of ['content-type', 'content-encoding', 'content-length', 'cache-control', 'vary']) expect(head.headers[name], name).toBe(body.headers[name]);
  });

  it('sends a file rebuilt under the running server as it is now', async () => {
    const file = join(staticDir, 'assets', 'rebuilt.js');
    writeFileSync(file, bundle);
    expect(decoded(await get('/assets/rebuilt.js', 'br')).equals(Buffer.from(bundle))).toBe(true);
    const rebuilt = `${bundle}export const rebuilt = true;\n`;
    writeFileSync(file, rebuilt);
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(decoded(await get('/assets/rebuilt.js', 'br')).toString()).toBe(rebuilt);
    expect(decoded(await get('/assets/rebuilt.js', 'gzip')).toString()).toBe(rebuilt);
  });
});

describe('serve mode tells the browser how long to keep a file', () => {
  it("keeps vite's hashed assets a year and asks for the page and any unhashed name again on every load", async () => {
    expect((await get('/assets/index-SQwB9H2v.js', 'br')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/assets/logo-Ab12Cd34.png')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/', 'br')).headers['cache-control']).toBe('no-cache');
    expect((await get('/index.html')).headers['cache-control']).toBe('no-cache');
    expect((await get('/assets/app.js')).headers['cache-control']).toBe('no-cache');
  });
});

describe('negotiateEncoding', () => {
  it('picks the coding the client weighs highest, brotli on a tie, and nothing the client refuses', () => {
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('BR;Q=0.9, GZIP;Q=1.0')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('br;q=0, *;q=0.2')).toBe('gzip');
    expect(negotiateEncoding('gzip;q=nonsense, br;q=0.001')).toBe('br');
    expect(negotiateEncoding('identity;q=1, gzip;q=0')).toBe('identity');
    expect(negotiateEncoding(undefined)).toBe('identity');
  });
});
