// Las palabras de la gráfica de una ejecución de kernel en español, junto a la función de la gráfica
// (charts/kernel-chart-catalog-es.ts), para que el informe PDF lea las mismas.
export { kernelChartEs as kernelChart } from '../../charts/kernel-chart-catalog-es.ts';
