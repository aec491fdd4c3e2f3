// The English words of the labs' findings and series, by lab: a finding is recorded as one of these ids with named
// values (common/message.ts) and rendered in the reader's language; es.ts holds the same keys in Spanish, with the
// labs' descriptors (titles, explanations, parameters, presets) besides, whose English lives in each lab's file.
// "{name}" is a named value, "|" separates plural forms (the form for one first), as vue-i18n reads them.
export const labTextEn = {
  common: {
    // Filled in where a finding names a size the run did not record.
    unknown: '?',
  },
  'matmul-breakeven': {
    series: { cpu: 'CPU BLAS', 'gpu-transfers': 'GPU with transfers', 'gpu-resident': 'GPU resident' },
    findings: {
      cpuRate: 'The CPU peaks at {rate} (N = {n}, {time}).',
      overtakes: 'The {series} overtakes the CPU from about N = {size}.',
      faster: 'The {series} is faster than the CPU at every size measured, from N = {n}.',
      level: 'The {series} is level with the CPU at N = {n}{ratio} and at least as fast at every larger size measured: the break-even is at or below the smallest size; add smaller sizes to find it.',
      levelRatio: ' ({ratio} its speed, within the spread of the samples)',
      never: 'The {series} never beats the CPU here (best {ratio} at N = {n}).',
      range: "{series}: {small} the CPU's speed at N = {smallest}, {large} at N = {largest}{best}.",
      rangeBest: '; at best {rate}, at N = {n}',
    },
  },
} as const;

export type LabTextCatalog = typeof labTextEn;
