// A class's server as its users meet it, for the classroom tests: a real lab host (compute host on this machine's
// CPU) over a data folder of recorded runs and kernel runs, a class on it, serve mode over HTTP; students join with
// the class link's cookie from a given address, and talk over WebSockets with their own tokens.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createLabHost } from '../../../main/app/lab-host.ts';
import type { LabHost } from '../../../main/app/lab-host.ts';
import { Classroom } from '../../../main/classroom/classroom.ts';
import type { ClassCaps } from '../../../main/common/contract/classroom.ts';
import type { JoinLimits } from '../../../main/serve/join-request.ts';
import { startServer } from '../../../main/serve/server.ts';
import type { RunningServer } from '../../../main/serve/server.ts';
import { openApiSocket } from '../serve/ws-client.ts';
import type { ApiClient } from '../serve/ws-client.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export interface ClassServer {
  host: LabHost;
  classroom: Classroom;
  server: RunningServer;
  dataDir: string;
  // The recorded runs and kernel runs copied in, owned by nobody until a test gives them to someone.
  runIds: string[];
  kernelRunIds: string[];
  close(): Promise<void>;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function recordedDataDir(): { dataDir: string; runIds: string[]; kernelRunIds: string[] } {
  const dataDir = mkdtempSync(joinPath(tmpdir(), 'gpu-lab-class-'));
  mkdirSync(joinPath(dataDir, 'runs'));
  mkdirSync(joinPath(dataDir, 'kernels', 'runs'), { recursive: true });
  const runIds = readdirSync(joinPath(FIXTURES, 'runs'))
    .filter((n) => n.startsWith('cpu-'))
    .map((name) => {
      const id = (JSON.parse(readFileSync(joinPath(FIXTURES, 'runs', name), 'utf8')) as { id: string }).id;
      copyFileSync(joinPath(FIXTURES, 'runs', name), joinPath(dataDir, 'runs', `${id}.json`));
      return id;
    });
  const kernelRunIds = readdirSync(joinPath(FIXTURES, 'kernel-runs')).map((name) => {
    const id = `class-${name.replace(/\.json$/, '')}`;
    const run = JSON.parse(readFileSync(joinPath(FIXTURES, 'kernel-runs', name), 'utf8')) as object;
    writeFileSync(joinPath(dataDir, 'kernels', 'runs', `${id}.json`), JSON.stringify({ ...run, id }));
    return id;
  });
  return { dataDir, runIds, kernelRunIds };
}

// The devices' locks in a folder of the test's own unless one is given: another program measuring on this machine
// must not hold up the class's runs here (tests of that give the folder they share).
export async function startClassServer(options: { name?: string; caps?: Partial<ClassCaps>; joinLimits?: JoinLimits; dataDir?: string; lockDir?: string } = {}): Promise<ClassServer> {
  const recorded = options.dataDir ? { dataDir: options.dataDir, runIds: [], kernelRunIds: [] } : recordedDataDir();
  const staticDir = mkdtempSync(joinPath(tmpdir(), 'gpu-lab-class-web-'));
  writeFileSync(joinPath(staticDir, 'index.html'), '<!doctype html><title>GPU Lab</title>');
  let classroom: Classroom | null = null;
  const host = createLabHost({ dataDir: recorded.dataDir, supervisor: { log: () => undefined }, warn: () => undefined, lockDir: options.lockDir ?? mkdtempSync(joinPath(tmpdir(), 'gpu-lab-class-locks-')), onDeviceWait: (h) => classroom?.deviceWaited(h) });
  classroom = await Classroom.open({ host, dataDir: recorded.dataDir, name: options.name ?? 'HPC 2026', caps: options.caps });
  const server = await startServer({ api: host, staticDir, port: 0, classroom, joinLimits: options.joinLimits, limits: { runsWaiting: 2000, runStartsPerMinute: 600 } });
  const opened = classroom;
  return {
    host,
    classroom: opened,
    server,
    ...recorded,
    async close() {
      await server.close();
      opened.dispose();
      await host.close(1000);
    },
  };
}

export function http(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', localAddress: options.localAddress, headers: { host: `127.0.0.1:${port}`, ...options.headers } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

// The value of cookie `name` among an answer's Set-Cookie headers.
export function setCookie(answer: HttpAnswer, name: string): string | null {
  const headers = answer.headers['set-cookie'] ?? [];
  for (const line of Array.isArray(headers) ? headers : [headers]) {
    const m = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (m) return decodeURIComponent(m[1] ?? '');
  }
  return null;
}

// A join as the class page sends it: the class link's cookie, this server's origin, JSON.
export function joinRequest(s: ClassServer, body: string, options: { classToken?: string; origin?: string; localAddress?: string; type?: string } = {}): Promise<HttpAnswer> {
  const port = s.server.port;
  return http(port, '/join', {
    method: 'POST',
    localAddress: options.localAddress,
    body,
    headers: {
      origin: options.origin ?? `http://127.0.0.1:${port}`,
      cookie: `gpulab_class_${port}=${options.classToken ?? s.classroom.classToken}`,
      'content-type': options.type ?? 'application/json',
    },
  });
}

export interface Student {
  name: string;
  token: string;
  id: string;
}

export async function join(s: ClassServer, name: string, localAddress?: string): Promise<Student> {
  const answer = await joinRequest(s, JSON.stringify({ name }), { localAddress });
  const token = setCookie(answer, `gpulab_student_${s.server.port}`);
  if (answer.status !== 200 || token === null) throw new Error(`join of ${JSON.stringify(name)} answered ${answer.status}: ${answer.body}`);
  const student = s.classroom.store.byToken(token);
  if (!student) throw new Error('the token the join gave holds no student');
  return { name: (JSON.parse(answer.body) as { name: string }).name, token, id: student.id };
}

export function socketOf(s: ClassServer, token: string): Promise<ApiClient> {
  return openApiSocket(s.server.port, token);
}

let lastId = 1_000_000;
// One request and its answer, matched by id; events that arrive meanwhile are kept in `heard`.
export async function ask(client: ApiClient, method: string, args: unknown[], heard: Record<string, unknown>[] = []): Promise<Record<string, unknown>> {
  const id = ++lastId;
  client.ws.send(JSON.stringify({ id, method, args }));
  for (;;) {
    const frame = await client.next();
    if (frame === null) throw new Error(`the server closed the socket before answering ${method}`);
    if (frame.id === id) return frame;
    if ('event' in frame) heard.push(frame);
  }
}
