// The English words of the labs, one module per lab: their findings, series and point names (a finding is recorded as
// one of these ids with named values, common/pure/message.ts, and rendered in the reader's language) and what each lab
// says of itself (title, explanation, parameters, presets: its descriptor's words). ../es/ holds the same keys in
// Spanish. "{name}" is a named value, "|" separates plural forms (the form for one first), as vue-i18n reads them.
import type { DescriptorText, ParameterText } from '../lab-text-types.ts';
import { transfer, transferDescriptor } from './lab-transfer.ts';
import { dtypes, dtypesDescriptor } from './lab-dtypes.ts';
import { matmul, matmulDescriptor } from './lab-matmul.ts';
import { vectorFunction, vectorFunctionDescriptor } from './lab-vector-function.ts';
import { elementwiseBreakeven, elementwiseBreakevenDescriptor } from './lab-elementwise-breakeven.ts';
import { matmulBreakeven, matmulBreakevenDescriptor } from './lab-matmul-breakeven.ts';
import { timingPitfalls, timingPitfallsDescriptor } from './lab-timing-pitfalls.ts';
import { textToImage, textToImageDescriptor } from './lab-text-to-image.ts';

export const labText = {
  common: {
    // Filled in where a finding names a size the run did not record.
    unknown: '?',
    // A finding stored as English text by a version before findings were messages, shown as it was recorded.
    recorded: '{text}',
    // The findings every run gets whatever its lab (runs/run-findings.ts). {reason}, {points}, {point}, {code} and
    // {error} are the record's own words (a waived point's reason, points' labels, an error), in English.
    // A Python peer (the course's own code) against GPU Lab's series that measures the same thing (labs/analysis.ts,
    // agreementFinding, as common/pure/claims.ts agreementOf judges it): {ratio} is the peer's time over GPU Lab's, {low}–{high}
    // the range the two intervals allow; {within} the closest margin that range lies in, {margin} the one the two are
    // held to; {least}–{most} how much less or more time the peer takes, where the intervals do not overlap.
    peers: {
      agree: '{peer} ({peerTime}) and GPU Lab’s {ours} ({oursTime}) agree within {within} %: {ratio} the time ({low} to {high}).',
      lessTimeSmall: '{peer} ({peerTime}) takes {least} to {most} less time than GPU Lab’s {ours} ({oursTime}): a small but steady difference, the intervals do not overlap.',
      moreTimeSmall: '{peer} ({peerTime}) takes {least} to {most} more time than GPU Lab’s {ours} ({oursTime}): a small but steady difference, the intervals do not overlap.',
      lessTime: '{peer} ({peerTime}) takes {least} to {most} less time than GPU Lab’s {ours} ({oursTime}): the intervals do not overlap, a gap worth looking into.',
      moreTime: '{peer} ({peerTime}) takes {least} to {most} more time than GPU Lab’s {ours} ({oursTime}): the intervals do not overlap, a gap worth looking into.',
      faster: '{peer} ({peerTime}) takes {ratio} the time of GPU Lab’s {ours} ({oursTime}; {low} to {high}): faster, a gap worth looking into.',
      slower: '{peer} ({peerTime}) takes {ratio} the time of GPU Lab’s {ours} ({oursTime}; {low} to {high}): slower, a gap worth looking into.',
      unclear: '{peer} ({peerTime}) takes {ratio} the time of GPU Lab’s {ours} ({oursTime}), but the intervals allow {low} to {high}: too noisy to say whether they agree within {margin} %.',
    },
    // A ratio whose two medians' intervals allow a range wider than ±5 % of it (labs/analysis.ts, ratioValue).
    ratio: { ranged: '{ratio} ({low} to {high})' },
    // A CPU rate above the memory bandwidth the compute host measured (labs/analysis.ts, cacheClause): {memory} that
    // bandwidth, {bytes} the point's arrays, {cache} the last-level cache.
    cpu: {
      inCache: ', above the {memory} measured from main memory: its {bytes} of arrays sit in the {cache} last-level cache',
      aboveMemory: ', above the {memory} measured from main memory',

      // GPU Lab's own CPU GEMM, named with the library the run used (labs/analysis.ts, ownBlasName).
      ownBlas: 'GPU Lab’s CPU BLAS ({library})',
      ownBlasUnnamed: 'GPU Lab’s CPU BLAS',
      // The CPU a comparison reads against where the run measured more than one (labs/analysis.ts, rankBySpeed).
      fastest: 'the fastest CPU series measured, {cpu},',
    },
    run: {
      point: '{series}, {size}',
      sizeN: 'N = {n}',
      // A point of a lab of categories: its series and what sets it apart (a data type).
      pointOf: '{series} {what}',
      // What a run does after its last point, as its progress says.
      analysis: 'the analysis',
      // A run waiting for a device another run holds (main/engine/device-lock.ts); {since} is when that run took it.
      waiting: 'waiting for {device}: {user} (pid {pid}) is running {what} there, since {since}',
      holder: { lab: 'the {name} lab', kernel: 'a kernel of the {name} exercise', bench: 'the bench', peers: 'the Python peers ({name})' },
      twoPoints: '{a}; {b}',
      threePoints: '{a}; {b}; {c}',
      waived: '{count} point was WAIVED: {reason}. | {count} points were WAIVED: {reason}.',
      noReason: 'no reason given',
      notSaved:
        'The finished run could not be saved (tried twice: {failure}); it is kept in memory while this program runs and saved again when the next run finishes. Until then the copy on disk is unfinished, and is marked interrupted if this program stops first.',
      verificationFailed:
        '{count} result failed verification against the float64 reference and is shown as failed, not as times: {points}. | {count} results failed verification against the float64 reference and are shown as failed, not as times: {points}.',
      pointsFailed: '{count} point failed to measure{first}. | {count} points failed to measure{first}.',
      firstFailure: ' (first: {point}, {code})',
      noisy:
        '{count} point is noisy (its median is uncertain by more than ±5 %; worst: {point}, {spread}): rerun it before trusting it. | {count} points are noisy (their medians are uncertain by more than ±5 %; worst: {point}, {spread}): rerun them before trusting them.',
      pointsSteal:
        '{count} point was measured while the hypervisor gave at least 5 % of the CPU time to other guests ({share} at {point}): its samples include waits no way of measuring removes. | {count} points were measured while the hypervisor gave at least 5 % of the CPU time to other guests (up to {share}, at {point}): their samples include waits no way of measuring removes.',
      gpuClockDropped:
        "The GPU's SM clock was 5 % or more lower after {count} point than before it (from {from} to {to} MHz at {point}): the card slowed down (heat or power) while it was measured. | The GPU's SM clock was 5 % or more lower after {count} points than before them (the most from {from} to {to} MHz, at {point}): the card slowed down (heat or power) while they were measured.",
      cpuClockDropped:
        "The CPU's clock was 5 % or more lower after {count} point than before it (from {from} to {to} MHz at {point}): the processor slowed down while it was measured. | The CPU's clock was 5 % or more lower after {count} points than before them (the most from {from} to {to} MHz, at {point}): the processor slowed down while they were measured.",
      steal:
        "The hypervisor gave {share} of this machine's CPU time to other guests while the points were measured (steal time): on a shared virtual machine the CPU's timings, and copies from pageable memory, vary from sample to sample by that much, and no way of measuring removes it.",
    },
  },
  transfer,
  dtypes,
  matmul,
  'vector-function': vectorFunction,
  'elementwise-breakeven': elementwiseBreakeven,
  'matmul-breakeven': matmulBreakeven,
  'timing-pitfalls': timingPitfalls,
  'text-to-image': textToImage,
} as const;

export type LabTextCatalog = typeof labText;

export const labDescriptors: Record<string, DescriptorText> = {
  transfer: transferDescriptor,
  dtypes: dtypesDescriptor,
  matmul: matmulDescriptor,
  'vector-function': vectorFunctionDescriptor,
  'elementwise-breakeven': elementwiseBreakevenDescriptor,
  'matmul-breakeven': matmulBreakevenDescriptor,
  'timing-pitfalls': timingPitfallsDescriptor,
  'text-to-image': textToImageDescriptor,
};

// The parameters almost every lab shares, except where one words them its own way.
export const sharedParameters: Record<'repeats' | 'threads' | 'warmup', ParameterText> = {
  repeats: { label: 'Repeats', description: "The samples a point's time budget is planned for: the engine samples until the median's 95 % interval is within ±2 % of it, or until about this many samples' time is spent, taking at least 6 (one, where a single sample outlasts the budget); the Method section gives what each point took." },
  threads: { label: 'CPU threads', description: 'Threads of the CPU series; 0: every logical core.' },
  warmup: {
    label: 'Warm-up runs',
    description: 'Untimed runs before the samples: library loading, first touch of memory and clocks ramping up stay out of the numbers.',
  },
};

// A parameter's unit for a count of one ("1 run"), by the unit's id (the labs' units are English words).
export const unitsOne: Record<string, string> = { samples: 'sample', runs: 'run', threads: 'thread', elements: 'element', bytes: 'byte', steps: 'step', images: 'image' };
