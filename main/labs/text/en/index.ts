// The English words of the labs' findings and series, one module per lab (the descriptors' own words stay in each
// lab's file): a finding is recorded as one of these ids with named values (common/message.ts) and rendered in the
// reader's language; ../es/ holds the same keys in Spanish. "{name}" is a named value, "|" separates plural forms
// (the form for one first), as vue-i18n reads them. The English of a series' label is the lab's own.
import { transfer } from './transfer.ts';
import { dtypes } from './dtypes.ts';
import { matmul } from './matmul.ts';
import { vectorFunction } from './vector-function.ts';
import { elementwiseBreakeven } from './elementwise-breakeven.ts';
import { matmulBreakeven } from './matmul-breakeven.ts';
import { timingPitfalls } from './timing-pitfalls.ts';

export const labTextEn = {
  common: {
    // Filled in where a finding names a size the run did not record.
    unknown: '?',
  },
  transfer,
  dtypes,
  matmul,
  'vector-function': vectorFunction,
  'elementwise-breakeven': elementwiseBreakeven,
  'matmul-breakeven': matmulBreakeven,
  'timing-pitfalls': timingPitfalls,
} as const;

export type LabTextCatalog = typeof labTextEn;
