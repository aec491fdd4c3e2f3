// The words a chart or a table shows come in as a translate function: vue-i18n's t in the renderer, the same
// catalog's plain lookup (catalog-translate.ts) for the PDF. Keys are those of results-catalog.ts ("results.chart.…").
export type Translate = (key: string, named?: Record<string, string | number>, plural?: number) => string;
