// dtypes's findings and series in English (the descriptor's words are in ../../dtypes.ts).
export const dtypes = {
  series: {},
  findings: {},
} as const;
