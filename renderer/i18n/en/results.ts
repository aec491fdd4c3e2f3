// The results part of the English catalog: the words of charts, tables and comparisons. They are kept beside the chart
// functions that read them (renderer/charts/results-catalog.ts), so that the PDF report main writes reads the very
// same words without importing the renderer's i18n.
export { results } from '../../charts/results-catalog.ts';
