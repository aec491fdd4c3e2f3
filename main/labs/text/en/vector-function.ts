// vector-function's findings and series in English (the descriptor's words are in ../../vector-function.ts).
export const vectorFunction = {
  series: {},
  findings: {},
} as const;
