// The classroom service where there is no class (the desktop app, `gpu-lab serve` without --classroom): the caller is
// alone with the machine, nothing is queued by a class, and the class's own methods say there is no class.
import type { ClassroomService, QueueView } from '../common/contract/classroom.ts';
import { GpuLabError } from '../common/errors.ts';

const EMPTY_QUEUE: QueueView = { entries: [], devices: [], busyWithOtherProgram: [] };

function noClass(method: string): GpuLabError {
  return new GpuLabError('NOT_FOUND', `classroom.${method}: this server has no class (start one with gpu-lab serve --classroom NAME)`, { method: `classroom.${method}` });
}

export function soloClassroom(): ClassroomService {
  return {
    session: async () => ({ role: 'solo', className: null, name: null, caps: null }),
    queue: async () => EMPTY_QUEUE,
    leaveQueue: async () => {
      throw noClass('leaveQueue');
    },
    classDistribution: async () => {
      throw noClass('classDistribution');
    },
    listStudents: async () => [],
    removeStudent: async () => {
      throw noClass('removeStudent');
    },
    setCaps: async () => {
      throw noClass('setCaps');
    },
    classOverview: async () => {
      throw noClass('classOverview');
    },
    classCsv: async () => {
      throw noClass('classCsv');
    },
    writeClassReport: async () => {
      throw noClass('writeClassReport');
    },
    onDidChangeQueue: () => ({ dispose: () => undefined }),
  };
}
