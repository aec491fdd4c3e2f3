// Who may call what on a class's server: one entry per method of the contract, the roles that may call it and the
// run ids among its arguments that must be the caller's. The door (door.ts) reads this table on every call of every
// connection; a method the table has no entry for is refused, never let through (the compiler asks for an entry when
// a method is added to the contract, and the door refuses at run time what slipped past it).
//
// The teacher may call everything and read every run. A student reads their own runs only: a run id of another
// student is answered NOT_FOUND, as one that does not exist, so that trying ids tells nothing. A guest (a browser
// holding the class link, before its student has given a name) may only ask who it is.
import type { ApiMethod } from '../common/contract/index.ts';
import type { ReportRequest } from '../common/contract/reports.ts';

export type SeatRole = 'teacher' | 'student' | 'guest';

// The ids a call names, each of which a student must own.
export interface NamedIds {
  runs?: readonly string[];
  kernelRuns?: readonly string[];
  queueEntries?: readonly string[];
}

export interface MethodAccess {
  roles: readonly SeatRole[];
  // The ids among the arguments (already checked against the contract's schemas).
  names?: (args: readonly unknown[]) => NamedIds;
}

const TEACHER: readonly SeatRole[] = ['teacher'];
const CLASS: readonly SeatRole[] = ['teacher', 'student'];
const ANYONE: readonly SeatRole[] = ['teacher', 'student', 'guest'];

const first = (args: readonly unknown[]): string => String(args[0]);
const aRun = (args: readonly unknown[]): NamedIds => ({ runs: [first(args)] });
const aKernelRun = (args: readonly unknown[]): NamedIds => ({ kernelRuns: [first(args)] });

// A student's lists (their runs, their kernel runs, their labs report, their drafts, their queue) are made of their
// own things by the class's services; the table says who may ask at all.
export const ACCESS: Record<ApiMethod, MethodAccess> = {
  'devices.listDevices': { roles: CLASS },
  'devices.inspectDevices': { roles: CLASS },
  'devices.readTelemetry': { roles: CLASS },
  'devices.inspectPython': { roles: CLASS },
  'labs.listLabs': { roles: CLASS },
  'labs.kernelSource': { roles: CLASS },
  'labs.validateParams': { roles: CLASS },
  'labs.referenceResults': { roles: CLASS },
  'labs.timeBounds': { roles: CLASS },
  'runs.startRun': { roles: CLASS },
  'runs.cancelRun': { roles: CLASS, names: aRun },
  'runs.listRuns': { roles: CLASS },
  'runs.getRun': { roles: CLASS, names: aRun },
  'runs.getRunProgress': { roles: CLASS, names: aRun },
  'runs.deleteRun': { roles: CLASS, names: aRun },
  'runs.exportRun': { roles: CLASS, names: aRun },
  // Runs brought in from elsewhere join the class's folder: the teacher's to decide, and an upload costs the server
  // disk and time whoever sends it.
  'imports.begin': { roles: TEACHER },
  'imports.sendPart': { roles: TEACHER },
  'imports.finish': { roles: TEACHER },
  'imports.cancel': { roles: TEACHER },
  'reports.writeReport': {
    roles: CLASS,
    names: (args) => {
      const request = args[0] as ReportRequest;
      return { runs: request.runIds, kernelRuns: request.kernelRunIds ?? [] };
    },
  },
  'reports.labsReportContents': { roles: CLASS },
  'reports.writeLabsReport': { roles: CLASS },
  // A student's devices are compared over their own runs (class-services.ts reportsOver).
  'reports.compareDevices': { roles: CLASS },
  'reports.writeDevicesReport': { roles: CLASS },
  'playground.listExercises': { roles: CLASS },
  'playground.status': { roles: CLASS },
  'playground.runKernel': { roles: CLASS },
  'playground.listKernelRuns': { roles: CLASS },
  'playground.getKernelRun': { roles: CLASS, names: aKernelRun },
  'playground.deleteKernelRun': { roles: CLASS, names: aKernelRun },
  'playground.loadDraft': { roles: CLASS },
  'playground.saveDraft': { roles: CLASS },
  'classroom.session': { roles: ANYONE },
  'classroom.queue': { roles: CLASS },
  'classroom.leaveQueue': { roles: CLASS, names: (args) => ({ queueEntries: [first(args)] }) },
  'classroom.classDistribution': { roles: CLASS, names: aRun },
  'classroom.listStudents': { roles: TEACHER },
  'classroom.removeStudent': { roles: TEACHER },
  'classroom.setCaps': { roles: TEACHER },
  'classroom.classOverview': { roles: TEACHER },
  'classroom.classCsv': { roles: TEACHER },
  'classroom.writeClassReport': { roles: TEACHER },
};

// The entry of `method`, or null where the table has none (a method added to the contract and not to the table).
export function accessOf(method: string): MethodAccess | null {
  return Object.hasOwn(ACCESS, method) ? (ACCESS[method as ApiMethod] ?? null) : null;
}
