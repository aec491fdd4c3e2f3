// A class on disk: <data dir>/classroom/class.json holds its name, the teacher's caps, its students (each with the
// SHA-256 of their token, never the token) and who owns which run and kernel run. Written whole through the one
// atomic-write helper after every change, one write at a time, so that a crash leaves the class as it was before the
// change or after it; read back when the server starts again, so the students' tokens keep working. The teacher's
// link and the class link are new at every start and never stored.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { z } from 'zod';

import { CLASS_CAPS, STUDENT_ID } from '../common/contract/classroom.ts';
import type { ClassCaps, ClassStudent } from '../common/contract/classroom.ts';
import { GpuLabError } from '../common/errors.ts';
import { describeNameProblem, nameKey, nameProblem, trimName } from '../common/pure/student-name.ts';
import { ensureFolder, writeFileAtomic } from '../runs/atomic-write.ts';

export const DEFAULT_CAPS: ClassCaps = { maxPoints: 400, maxBytes: 4 * 2 ** 30, maxSeconds: 600 };
// Past this many students a class takes no more: a flood of joins from many addresses ends here.
export const MAX_STUDENTS = 500;

// Who owns a run: a student's id, or the teacher.
export const TEACHER = 'teacher';
export type Owner = string;

const STORED_STUDENT = z.strictObject({
  id: STUDENT_ID,
  name: z.string(),
  // SHA-256 of the token, hexadecimal; null once the student was removed.
  tokenHash: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
  joinedAt: z.string(),
  removedAt: z.string().nullable(),
});
export type StoredStudent = z.infer<typeof STORED_STUDENT>;

const OWNER = z.union([STUDENT_ID, z.literal(TEACHER)]);
const CLASS_FILE = z.strictObject({
  schemaVersion: z.literal(1),
  name: z.string(),
  createdAt: z.string(),
  caps: CLASS_CAPS,
  students: z.array(STORED_STUDENT),
  runs: z.record(z.string(), OWNER),
  kernelRuns: z.record(z.string(), OWNER),
});
type ClassFile = z.infer<typeof CLASS_FILE>;

export type RunKind = 'runs' | 'kernelRuns';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export class ClassStore {
  readonly path: string;
  readonly dir: string;
  private data: ClassFile;
  private writing: Promise<void> = Promise.resolve();

  private constructor(dir: string, data: ClassFile) {
    this.dir = dir;
    this.path = join(dir, 'class.json');
    this.data = data;
  }

  // The class of `dataDir`, made if there is none. A data folder holds one class: another name is refused, and a
  // class file that cannot be read is never written over (its students' tokens would be lost).
  static async open(dataDir: string, name: string, caps?: Partial<ClassCaps>): Promise<ClassStore> {
    const className = name.trim();
    if (className === '' || className.length > 120 || /\p{Cc}/u.test(className)) {
      throw new GpuLabError('INVALID_ARGUMENT', `The class name ${JSON.stringify(name.slice(0, 200))} is not allowed: expected 1 to 120 characters, no control characters`, { field: 'classroom' });
    }
    const dir = join(dataDir, 'classroom');
    ensureFolder(dir, 'the class folder');
    const path = join(dir, 'class.json');
    const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : Promise.reject(err)));
    let data: ClassFile;
    if (text === null) {
      data = { schemaVersion: 1, name: className, createdAt: new Date().toISOString(), caps: { ...DEFAULT_CAPS }, students: [], runs: {}, kernelRuns: {} };
    } else {
      data = parseClassFile(path, text);
      if (data.name !== className) {
        throw new GpuLabError('INVALID_ARGUMENT', `${path} holds the class ${JSON.stringify(data.name)}, not ${JSON.stringify(className)}: give that name, or another --data-dir for a new class`, {
          field: 'classroom',
          path,
        });
      }
    }
    const store = new ClassStore(dir, data);
    store.data.caps = CLASS_CAPS.parse({ ...store.data.caps, ...caps });
    await store.save();
    return store;
  }

  // The class of `dataDir` as it is on disk, to read and never to write (`gpu-lab classroom export`): NOT_FOUND where
  // the folder holds no class.
  static async read(dataDir: string): Promise<ClassStore> {
    const dir = join(dataDir, 'classroom');
    const path = join(dir, 'class.json');
    const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : Promise.reject(err)));
    if (text === null) {
      throw new GpuLabError('NOT_FOUND', `There is no class in ${dataDir}: ${path} does not exist (a class is made by gpu-lab serve --classroom NAME --data-dir ${dataDir})`, { path });
    }
    return new ClassStore(dir, parseClassFile(path, text));
  }

  get name(): string {
    return this.data.name;
  }

  get caps(): ClassCaps {
    return { ...this.data.caps };
  }

  async setCaps(caps: ClassCaps): Promise<ClassCaps> {
    this.data.caps = { ...caps };
    await this.save();
    return this.caps;
  }

  students(): StoredStudent[] {
    return this.data.students.filter((s) => s.removedAt === null).map((s) => ({ ...s }));
  }

  // Every student who joined, the removed ones included: their runs stay in the class.
  everyone(): StoredStudent[] {
    return this.data.students.map((s) => ({ ...s }));
  }

  // The students in the class as the teacher lists them, with how many runs and kernel runs each owns.
  roster(): ClassStudent[] {
    return this.students().map((s) => ({ id: s.id, name: s.name, joinedAt: s.joinedAt, runs: this.owned('runs', s.id).size, kernelRuns: this.owned('kernelRuns', s.id).size }));
  }

  student(id: string): StoredStudent | null {
    const s = this.data.students.find((x) => x.id === id && x.removedAt === null);
    return s ? { ...s } : null;
  }

  // The student whose token this is, if they are still in the class.
  byToken(token: string): StoredStudent | null {
    const hash = Buffer.from(hashToken(token), 'hex');
    for (const s of this.data.students) {
      if (s.tokenHash !== null && timingSafeEqual(Buffer.from(s.tokenHash, 'hex'), hash)) return { ...s };
    }
    return null;
  }

  // A new student and their token; INVALID_ARGUMENT naming the field when the name is refused or taken.
  async join(rawName: string): Promise<{ student: StoredStudent; token: string }> {
    const problem = nameProblem(rawName);
    if (problem) throw new GpuLabError('INVALID_ARGUMENT', `\`name\` is not allowed: ${describeNameProblem(problem)}`, { field: 'name', ...problem });
    const name = trimName(rawName);
    const key = nameKey(name);
    if (this.data.students.some((s) => s.removedAt === null && nameKey(s.name) === key)) {
      throw new GpuLabError('INVALID_ARGUMENT', '`name` is taken: another student of this class has it; add an initial or a surname', { field: 'name', reason: 'taken' });
    }
    if (this.students().length >= MAX_STUDENTS) {
      throw new GpuLabError('RATE_LIMITED', `The class is full: ${MAX_STUDENTS} students have joined`, { limit: 'students' });
    }
    const token = newToken();
    const student: StoredStudent = { id: `s-${randomBytes(6).toString('hex')}`, name, tokenHash: hashToken(token), joinedAt: new Date().toISOString(), removedAt: null };
    this.data.students.push(student);
    try {
      await this.save();
    } catch (err) {
      this.data.students = this.data.students.filter((s) => s !== student);
      throw err;
    }
    return { student: { ...student }, token };
  }

  // Their token stops working; their runs stay, owned by them, for the teacher.
  async remove(id: string): Promise<void> {
    const s = this.data.students.find((x) => x.id === id && x.removedAt === null);
    if (!s) throw new GpuLabError('NOT_FOUND', `There is no student ${id} in this class`, { studentId: id });
    s.tokenHash = null;
    s.removedAt = new Date().toISOString();
    await this.save();
  }

  ownerOf(kind: RunKind, id: string): Owner | null {
    return Object.hasOwn(this.data[kind], id) ? (this.data[kind][id] ?? null) : null;
  }

  owned(kind: RunKind, owner: Owner): Set<string> {
    return new Set(Object.entries(this.data[kind]).flatMap(([id, o]) => (o === owner ? [id] : [])));
  }

  // A student's id by run, for the class's numbers: never leaves the server.
  owners(kind: RunKind): ReadonlyMap<string, Owner> {
    return new Map(Object.entries(this.data[kind]));
  }

  async own(kind: RunKind, id: string, owner: Owner): Promise<void> {
    this.data[kind][id] = owner;
    await this.save();
  }

  async disown(kind: RunKind, id: string): Promise<void> {
    if (!Object.hasOwn(this.data[kind], id)) return;
    delete this.data[kind][id];
    await this.save();
  }

  // One write at a time, each of the whole class as it is when its turn comes.
  private save(): Promise<void> {
    const write = this.writing.then(() => writeFileAtomic(this.path, `${JSON.stringify(this.data, null, 1)}\n`, { what: 'the class file' })).then(() => undefined);
    this.writing = write.catch(() => undefined);
    return write;
  }
}

function parseClassFile(path: string, text: string): ClassFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw unreadable(path, `it is not JSON (${(err as Error).message})`);
  }
  const parsed = CLASS_FILE.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw unreadable(path, `\`${issue?.path.join('.') ?? ''}\` ${issue?.message ?? 'does not match'}`);
  }
  return parsed.data;
}

function unreadable(path: string, why: string): GpuLabError {
  return new GpuLabError('INVALID_ARGUMENT', `The class file ${path} cannot be read: ${why}. It was left as it is (its students' tokens are in it); move it aside to start a new class`, {
    path,
  });
}
