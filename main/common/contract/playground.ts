// The kernel playground's service: the exercises, whether kernels can run here, a student's kernel compiled,
// verified and timed, the kernel runs kept, and the drafts.
import { z } from 'zod';

import {
  EXERCISE_DESCRIPTOR,
  EXERCISE_IDS,
  KERNEL_RUN,
  KERNEL_RUN_REQUEST,
  KERNEL_RUN_SUMMARY,
  MAX_SOURCE_CHARS,
  PLAYGROUND_STATUS,
} from '../playground.ts';
import { LOCALE_ARGUMENT } from './labs.ts';
import { RUN_ID } from './runs.ts';
import { arg, method, service } from './spec.ts';
import type { ServiceOf } from './spec.ts';

const EXERCISE = z.enum(EXERCISE_IDS);
const EXERCISES = `an exercise: ${EXERCISE_IDS.join(', ')}`;
const KERNEL_RUN_ID = arg('id', RUN_ID, 'a kernel run id');

export const PLAYGROUND_CONTRACT = service({
  listExercises: method([LOCALE_ARGUMENT], z.array(EXERCISE_DESCRIPTOR)),
  status: method([], PLAYGROUND_STATUS),
  // Compiles, verifies and times the kernel in the compute host; the run is stored whatever its outcome, and a
  // compiler error or a failed verification is a result, not an exception. A kernel that faults or runs past the
  // watchdog fails the run with the CUDA error and costs one compute-host restart.
  runKernel: method(
    [
      arg(
        'request',
        KERNEL_RUN_REQUEST,
        `a kernel run request {exercise: ${EXERCISE_IDS.join(', ')}; source: 1 to ${MAX_SOURCE_CHARS} characters; device?: "cuda:N"; size?: a positive integer; block?, grid?: [x, y, z] of positive integers; compare?: true or false; fileName?: letters, digits, . _ -}`,
      ),
    ],
    KERNEL_RUN,
  ),
  listKernelRuns: method([arg('exercise', EXERCISE.optional(), EXERCISES)], z.array(KERNEL_RUN_SUMMARY)),
  getKernelRun: method([KERNEL_RUN_ID], KERNEL_RUN),
  deleteKernelRun: method([KERNEL_RUN_ID], z.void()),
  // The student's current source of an exercise, kept on this computer; null before the first save.
  loadDraft: method([arg('exercise', EXERCISE, EXERCISES)], z.string().nullable()),
  saveDraft: method([arg('exercise', EXERCISE, EXERCISES), arg('source', z.string().max(MAX_SOURCE_CHARS), `a kernel source of at most ${MAX_SOURCE_CHARS} characters`)], z.void()),
});

export type PlaygroundService = ServiceOf<typeof PLAYGROUND_CONTRACT>;
