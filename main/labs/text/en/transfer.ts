// transfer's findings and series in English (the descriptor's words are in ../../transfer.ts).
export const transfer = {
  series: {},
  findings: {},
} as const;
