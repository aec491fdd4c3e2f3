// The words of a kernel run's chart in English, kept beside the chart function (charts/kernel-chart-catalog.ts) so
// that the PDF report reads the same words.
export { kernelChart } from '../../charts/kernel-chart-catalog.ts';
