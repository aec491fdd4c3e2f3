// Joining a class and leaving it, over HTTP and WebSockets as browsers and scripts do: each link becomes its own
// cookie (the teacher's, the class link's, a student's), and a page says which seat it is; a name is refused with
// HTML left as text, control characters and 10 kB refused naming the field; a flood of joins from one address is
// cut off while another address still joins; a removed student's token stops at once, on the socket it had open too;
// the class survives a restart, its tokens kept as hashes only.
import { readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { Classroom } from '../../../main/classroom/classroom.ts';
import { ask, http, join, joinRequest, setCookie, socketOf, startClassServer } from './class-server.ts';
import type { ClassServer } from './class-server.ts';

let s: ClassServer;
beforeAll(async () => {
  s = await startClassServer({ joinLimits: { burst: 8, perMinute: 1 } });
});
afterAll(async () => {
  await s.close();
});

function upgrade(port: number, path: string, cookie: string): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { origin: `http://127.0.0.1:${port}`, headers: { cookie } });
    ws.on('open', () => resolve(ws));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => undefined);
  });
}

async function sessionOver(port: number, path: string, cookie: string): Promise<unknown> {
  const ws = await upgrade(port, path, cookie);
  if (typeof ws === 'number') return ws;
  const answer = await new Promise<unknown>((resolve) => {
    ws.once('message', (d) => resolve((JSON.parse(String(d)) as { value: unknown }).value));
    ws.send(JSON.stringify({ id: 1, method: 'classroom.session', args: [] }));
  });
  ws.close();
  return answer;
}

describe('the links and their cookies', () => {
  it('turns the teacher’s link and the class link into cookies of their own, and sends the class link to the student pages', async () => {
    const port = s.server.port;
    const teacher = await http(port, `/?token=${s.classroom.teacherToken}`);
    expect(teacher.status).toBe(303);
    expect(teacher.headers.location).toBe('/');
    expect(setCookie(teacher, `gpulab_teacher_${port}`)).toBe(s.classroom.teacherToken);
    const classLink = await http(port, `/?class=${s.classroom.classToken}`);
    expect(classLink.status).toBe(303);
    expect(classLink.headers.location).toBe('/?as=student');
    expect(setCookie(classLink, `gpulab_class_${port}`)).toBe(s.classroom.classToken);
    for (const answer of [teacher, classLink]) expect(String(answer.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    // The class link's token in the teacher's place sets no teacher's cookie, and gives a guest's seat only.
    expect(setCookie(await http(port, `/?token=${s.classroom.classToken}`), `gpulab_teacher_${port}`)).toBeNull();
    expect(await sessionOver(port, `/api?token=${s.classroom.classToken}`, '')).toMatchObject({ role: 'guest' });
  });

  it('gives one browser holding both cookies the seat each page asks for', async () => {
    const port = s.server.port;
    const cleo = await join(s, 'Cleo');
    const both = `gpulab_teacher_${port}=${s.classroom.teacherToken}; gpulab_student_${port}=${cleo.token}`;
    expect(await sessionOver(port, '/api', both)).toMatchObject({ role: 'teacher', name: null });
    expect(await sessionOver(port, '/api?as=student', both)).toMatchObject({ role: 'student', name: 'Cleo' });
    // A student's browser opening the app's address is sent to the student pages, not given the teacher's.
    const page = await http(port, '/', { headers: { cookie: `gpulab_student_${port}=${cleo.token}` } });
    expect(page).toMatchObject({ status: 303, headers: { location: '/?as=student' } });
    expect(await sessionOver(port, '/api', `gpulab_student_${port}=${cleo.token}`)).toBe(401);
    // Before joining, the class link's cookie is a guest's seat.
    expect(await sessionOver(port, '/api?as=student', `gpulab_class_${port}=${s.classroom.classToken}`)).toMatchObject({ role: 'guest', className: 'HPC 2026' });
  });
});

describe('a name', () => {
  it('keeps HTML as text: stored and answered as typed, for the page to show escaped', async () => {
    const html = '<img src=x onerror=alert(1)>';
    const student = await join(s, `  ${html}  `);
    expect(student.name).toBe(html);
    const teacher = await socketOf(s, s.classroom.teacherToken);
    const students = (await ask(teacher, 'classroom.listStudents', [])).value as { name: string }[];
    teacher.ws.close();
    expect(students.map((x) => x.name)).toContain(html);
  });

  it.each([
    ['a control character', 'Ana\u0000', 400, 'control-character'],
    ['an escape sequence', '\u001b[31mAna', 400, 'control-character'],
    ['a right-to-left override', 'Ana\u202egnp.exe', 400, 'control-character'],
    ['a line break', 'Ana\nBob', 400, 'control-character'],
    ['nothing but spaces', '   ', 400, 'empty'],
    ['61 characters', 'a'.repeat(61), 400, 'too-long'],
    ['10 kB', '<b>'.repeat(3414), 413, undefined],
  ])('is refused with %s, naming the field', async (_what, name, status, reason) => {
    const before = s.classroom.store.students().length;
    const answer = await joinRequest(s, JSON.stringify({ name }), { localAddress: '127.0.0.3' });
    expect(answer.status).toBe(status);
    const error = (JSON.parse(answer.body) as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.details.field).toBe('name');
    if (reason) expect(error.details.reason).toBe(reason);
    expect(setCookie(answer, `gpulab_student_${s.server.port}`)).toBeNull();
    expect(s.classroom.store.students().length).toBe(before);
  });

  it('is refused when another student has it, in any case or form', async () => {
    await join(s, 'María José', '127.0.0.4');
    for (const taken of ['maría josé', 'MARÍA   JOSÉ', 'Mari\u0301a Jose\u0301', 'ＭＡＲＩＡ josé'.replace('ＭＡＲＩＡ', 'ＭＡＲÍＡ')]) {
      const answer = await joinRequest(s, JSON.stringify({ name: taken }), { localAddress: '127.0.0.4' });
      expect(answer.status, taken).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { details: { field: 'name', reason: 'taken' } } });
    }
  });

  it('is not taken without the class link, from another origin, or as anything but JSON', async () => {
    const body = JSON.stringify({ name: 'Mallory' });
    expect((await joinRequest(s, body, { classToken: 'wrong', localAddress: '127.0.0.5' })).status).toBe(401);
    expect((await joinRequest(s, body, { origin: 'http://evil.example', localAddress: '127.0.0.5' })).status).toBe(403);
    expect((await joinRequest(s, 'name=Mallory', { type: 'application/x-www-form-urlencoded', localAddress: '127.0.0.5' })).status).toBe(415);
    expect((await joinRequest(s, '{"name": 42}', { localAddress: '127.0.0.5' })).status).toBe(400);
    expect((await http(s.server.port, '/join')).status).toBe(405);
    expect(s.classroom.store.students().map((x) => x.name)).not.toContain('Mallory');
  });
});

describe('a flood of joins', () => {
  it('is cut off for its address after the burst, said with the seconds to wait, while another address still joins', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => joinRequest(s, JSON.stringify({ name: `Flood ${i}` }), { localAddress: '127.0.0.9' })));
    const accepted = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toBe(8);
    expect(refused).toHaveLength(52);
    expect(refused[0]?.headers['retry-after']).toBe('60');
    expect(s.classroom.store.students().filter((x) => x.name.startsWith('Flood')).length).toBe(8);
    await expect(join(s, 'Not a flood', '127.0.0.10')).resolves.toMatchObject({ name: 'Not a flood' });
  });
});

describe('a removed student', () => {
  it('loses the socket they had open at once, and their token opens nothing after', async () => {
    const port = s.server.port;
    const dan = await join(s, 'Dan', '127.0.0.6');
    const socket = await socketOf(s, dan.token);
    expect((await ask(socket, 'runs.listRuns', [])).ok).toBe(true);
    const teacher = await socketOf(s, s.classroom.teacherToken);
    expect((await ask(teacher, 'classroom.removeStudent', [dan.id])).ok).toBe(true);
    teacher.ws.close();
    expect(await socket.closed).toBe(4401);
    // Replayed: the WebSocket with the token, with the cookie, and the page with the cookie.
    expect(await upgrade(port, `/api?token=${dan.token}`, '')).toBe(401);
    expect(await upgrade(port, '/api?as=student', `gpulab_student_${port}=${dan.token}`)).toBe(401);
    expect((await http(port, '/', { headers: { cookie: `gpulab_student_${port}=${dan.token}` } })).status).toBe(401);
    expect((await http(port, `/?token=${dan.token}`)).status).toBe(401);
    // The API a socket of theirs was given refuses too, whatever was in flight.
    const api = s.classroom.apiFor({ role: 'student', id: dan.id });
    await expect(api.runs.listRuns()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(s.classroom.store.students().map((x) => x.name)).not.toContain('Dan');
  });
});

describe('the class on disk', () => {
  it('keeps hashes of the tokens, never a token', async () => {
    const eve = await join(s, 'Eve', '127.0.0.7');
    const text = readFileSync(s.classroom.store.path, 'utf8');
    expect(text).toContain('"Eve"');
    for (const token of [eve.token, s.classroom.teacherToken, s.classroom.classToken]) expect(text).not.toContain(token);
  });

  it('survives a restart: the students’ tokens still open their seats, the links are new', async () => {
    const fay = await join(s, 'Fay', '127.0.0.8');
    const again = await Classroom.open({ host: s.host, dataDir: s.dataDir, name: 'HPC 2026' });
    expect(again.seatOf(fay.token, 'student')).toEqual({ role: 'student', id: fay.id });
    expect(again.seatOf(s.classroom.teacherToken, 'teacher')).toBeNull();
    expect(again.store.caps).toEqual(s.classroom.store.caps);
    again.dispose();
    await expect(Classroom.open({ host: s.host, dataDir: s.dataDir, name: 'Another class' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
