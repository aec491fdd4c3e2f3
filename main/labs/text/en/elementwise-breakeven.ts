// elementwise-breakeven's findings and series in English (the descriptor's words are in ../../elementwise-breakeven.ts).
export const elementwiseBreakeven = {
  series: {},
  findings: {},
} as const;
