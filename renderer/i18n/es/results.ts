// La parte de resultados del catálogo en español: las palabras de gráficas, tablas y comparaciones, junto a las
// funciones de gráficas que las leen (renderer/charts/results-catalog-es.ts), para que el informe PDF lea las mismas.
export { resultsEs as results } from '../../charts/results-catalog-es.ts';
