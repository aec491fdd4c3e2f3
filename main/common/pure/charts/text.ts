// The words a chart or a table shows come in as a translate function: vue-i18n's t in the renderer, the same engine
// over the same catalogs (main/common/pure/i18n) for the PDF. Keys are those of the "results" part ("results.chart.…").
export type { Translate } from '../i18n/translate.ts';
