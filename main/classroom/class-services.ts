// What each seat's calls do on a class's server, once the door (door.ts) has let them through. The teacher's are the
// lab host's, but that their runs go through the class's queue. A student's lists hold their own runs only, their
// runs go through the queue held to the teacher's caps, and their drafts are their own; a guest may only ask who it
// is. Events: a student hears of their own runs, and each seat of the queue as it may see it.
import { join } from 'node:path';

import type { LabHost } from '../app/lab-host.ts';
import { appVersion } from '../app/lab-host.ts';
import type { ClassroomService, ClassSession } from '../common/contract/classroom.ts';
import type { ImportsService } from '../common/contract/imports.ts';
import type { GpuLabApi } from '../common/contract/index.ts';
import type { PlaygroundService } from '../common/contract/playground.ts';
import type { RunsService } from '../common/contract/runs.ts';
import { GpuLabError } from '../common/errors.ts';
import { KernelStore } from '../playground/kernel-store.ts';
import { classDistribution } from './class-distribution.ts';
import type { ClassExports } from './class-exports.ts';
import type { ClassQueue } from './class-queue.ts';
import type { ClassRuns } from './class-runs.ts';
import { TEACHER } from './class-store.ts';
import type { ClassStore, Owner } from './class-store.ts';

export interface ClassParts {
  host: LabHost;
  store: ClassStore;
  queue: ClassQueue;
  runs: ClassRuns;
  exports: ClassExports;
  removeStudent(id: string): Promise<void>;
}

// A student imports nothing: the door refuses it first (access.ts, the teacher's alone); this is the second lock.
const teacherOnly = async (): Promise<never> => {
  throw new GpuLabError('FORBIDDEN', 'Only the teacher imports runs into the class');
};
const noImports: ImportsService = { begin: teacherOnly, sendPart: teacherOnly, finish: teacherOnly, cancel: teacherOnly };

function names(store: ClassStore): (owner: Owner) => string | null {
  return (owner) => (owner === TEACHER ? null : (store.student(owner)?.name ?? null));
}

function classroomFor(parts: ClassParts, owner: Owner, session: () => ClassSession): ClassroomService {
  const { host, store, queue, runs, exports } = parts;
  const viewer = owner === TEACHER ? ({ role: 'teacher' } as const) : ({ role: 'student', owner } as const);
  // The door refuses the teacher's methods to a student (access.ts); this is the second lock.
  const teacherOnly = (): void => {
    if (owner !== TEACHER) throw new GpuLabError('FORBIDDEN', 'The class’s students, caps, table and exports are the teacher’s');
  };
  return {
    session: async () => session(),
    queue: async () => queue.view(viewer, names(store)),
    leaveQueue: (entryId) => runs.leave(entryId),
    classDistribution: async (runId) =>
      classDistribution(await host.runs.getRun(runId), {
        listRuns: () => host.runs.listRuns(),
        getRun: (id) => host.runs.getRun(id),
        ownerOf: (id) => store.ownerOf('runs', id),
      }),
    listStudents: async () => {
      teacherOnly();
      return store.roster();
    },
    removeStudent: async (id) => {
      teacherOnly();
      await parts.removeStudent(id);
    },
    setCaps: async (caps) => {
      teacherOnly();
      return store.setCaps(caps);
    },
    classOverview: async () => {
      teacherOnly();
      return exports.overview();
    },
    classCsv: async () => {
      teacherOnly();
      return exports.csv();
    },
    writeClassReport: async (request) => {
      teacherOnly();
      const pdf = await exports.pdf({ ...request, writerVersion: appVersion() });
      return { filename: pdf.filename, mimeType: 'application/pdf', base64: Buffer.from(pdf.bytes).toString('base64'), pages: pdf.pages };
    },
    onDidChangeQueue: (listener) => queue.onDidChange(() => listener(queue.view(viewer, names(store)))),
  };
}

export function teacherServices(parts: ClassParts): GpuLabApi {
  const { host, store, runs } = parts;
  const session = (): ClassSession => ({ role: 'teacher', className: store.name, name: null, caps: null });
  const r = host.runs;
  const teacherRuns: RunsService = {
    startRun: (request) => runs.startLab(TEACHER, null, request),
    cancelRun: (runId) => runs.cancel(runId),
    listRuns: () => r.listRuns(),
    getRun: (runId) => r.getRun(runId),
    getRunProgress: (runId) => r.getRunProgress(runId),
    deleteRun: async (runId) => {
      await r.deleteRun(runId);
      await store.disown('runs', runId);
    },
    exportRun: (runId, format) => r.exportRun(runId, format),
    onDidChangeRun: (listener) => r.onDidChangeRun(listener),
  };
  const playground: PlaygroundService = { ...host.playground, runKernel: (request) => runs.runKernel(TEACHER, null, request) };
  return { devices: host.devices, labs: host.labs, runs: teacherRuns, imports: host.imports, reports: host.reports, playground, classroom: classroomFor(parts, TEACHER, session) };
}

export function studentServices(parts: ClassParts, studentId: string): GpuLabApi {
  const { host, store, runs } = parts;
  const mine = (kind: 'runs' | 'kernelRuns', id: string): boolean => store.ownerOf(kind, id) === studentId;
  const session = (): ClassSession => ({ role: 'student', className: store.name, name: store.student(studentId)?.name ?? null, caps: store.caps });
  const listRuns = async (): Promise<Awaited<ReturnType<RunsService['listRuns']>>> => (await host.runs.listRuns()).filter((s) => mine('runs', s.id));
  const studentRuns: RunsService = {
    startRun: (request) => runs.startLab(studentId, store.caps, request),
    cancelRun: (runId) => runs.cancel(runId),
    listRuns,
    getRun: (runId) => host.runs.getRun(runId),
    getRunProgress: (runId) => host.runs.getRunProgress(runId),
    deleteRun: async (runId) => {
      await host.runs.deleteRun(runId);
      await store.disown('runs', runId);
    },
    exportRun: (runId, format) => host.runs.exportRun(runId, format),
    onDidChangeRun: (listener) => host.runs.onDidChangeRun((e) => mine('runs', e.runId) && listener(e)),
  };
  // Drafts in the student's own folder of the class: a draft is "kept on this computer", and this computer is the
  // class's.
  const drafts = new KernelStore(join(store.dir, 'students', studentId));
  const playground: PlaygroundService = {
    listExercises: (locale) => host.playground.listExercises(locale),
    status: () => host.playground.status(),
    runKernel: (request) => runs.runKernel(studentId, store.caps, request),
    listKernelRuns: async (exercise) => (await host.playground.listKernelRuns(exercise)).filter((s) => mine('kernelRuns', s.id)),
    getKernelRun: (id) => host.playground.getKernelRun(id),
    deleteKernelRun: async (id) => {
      await host.playground.deleteKernelRun(id);
      await store.disown('kernelRuns', id);
    },
    loadDraft: (exercise) => drafts.loadDraft(exercise),
    saveDraft: (exercise, source) => drafts.saveDraft(exercise, source),
  };
  return { devices: host.devices, labs: host.labs, runs: studentRuns, imports: noImports, reports: host.reportsOver(listRuns), playground, classroom: classroomFor(parts, studentId, session) };
}

// A browser with the class link and no name yet: it may only learn which class it is joining. The door refuses the
// rest before it gets here; these answers are the second lock.
export function guestServices(store: ClassStore): GpuLabApi {
  const refuse = (): never => {
    throw new GpuLabError('FORBIDDEN', 'Join the class first: give your name on the class page');
  };
  const quiet = (): { dispose(): void } => ({ dispose: () => undefined });
  const everything = new Proxy({}, { get: (_t, name) => (typeof name === 'string' && name.startsWith('onDid') ? quiet : refuse) });
  const services = { devices: everything, labs: everything, runs: everything, imports: everything, reports: everything, playground: everything } as unknown as Omit<GpuLabApi, 'classroom'>;
  const classroom = new Proxy(
    { session: async (): Promise<ClassSession> => ({ role: 'guest', className: store.name, name: null, caps: null }) },
    { get: (target, name) => (name === 'session' ? target.session : typeof name === 'string' && name.startsWith('onDid') ? quiet : refuse) },
  ) as unknown as ClassroomService;
  return { ...services, classroom };
}
