// The words a chart or a table shows come in as a translate function: vue-i18n's t in the renderer, the same
// catalog's lookup for the PDF. Keys are those of renderer/i18n/en/results.ts ("results.chart.…").
export type Translate = (key: string, named?: Record<string, string | number>, plural?: number) => string;
