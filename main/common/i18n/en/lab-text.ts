// The English words of the labs' findings and series, one module per lab (the descriptors' own words stay in each
// lab's file): a finding is recorded as one of these ids with named values (common/message.ts) and rendered in the
// reader's language; ../es/ holds the same keys in Spanish. "{name}" is a named value, "|" separates plural forms
// (the form for one first), as vue-i18n reads them. The English of a series' label is the lab's own.
import { transfer } from './lab-transfer.ts';
import { dtypes } from './lab-dtypes.ts';
import { matmul } from './lab-matmul.ts';
import { vectorFunction } from './lab-vector-function.ts';
import { elementwiseBreakeven } from './lab-elementwise-breakeven.ts';
import { matmulBreakeven } from './lab-matmul-breakeven.ts';
import { timingPitfalls } from './lab-timing-pitfalls.ts';

export const labText = {
  common: {
    // Filled in where a finding names a size the run did not record.
    unknown: '?',
    // A finding stored as English text by a version before findings were messages, shown as it was recorded.
    recorded: '{text}',
    // The findings every run gets whatever its lab (runs/run-findings.ts). {reason}, {points}, {point}, {code} and
    // {error} are the record's own words (a waived point's reason, points' labels, an error), in English.
    run: {
      point: '{series}, {size}',
      sizeN: 'N = {n}',
      // A point of a lab of categories: its series and what sets it apart (a data type).
      pointOf: '{series} {what}',
      // What a run does after its last point, as its progress says.
      analysis: 'the analysis',
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
        '{count} point is noisy (IQR over 10 % of the median; worst: {point}, {spread}): another program was busy or the clocks were changing; rerun before trusting it. | {count} points are noisy (IQR over 10 % of the median; worst: {point}, {spread}): another program was busy or the clocks were changing; rerun before trusting them.',
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
} as const;

export type LabTextCatalog = typeof labText;
