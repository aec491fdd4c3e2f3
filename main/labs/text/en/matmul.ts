// matmul's findings and series in English (the descriptor's words are in ../../matmul.ts).
export const matmul = {
  series: {},
  findings: {},
} as const;
