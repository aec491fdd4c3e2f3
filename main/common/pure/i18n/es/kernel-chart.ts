// Las palabras de la gráfica de una ejecución de kernel (el banco de kernels), en español, con las mismas claves que
// kernel-chart-catalog.ts: las leen la aplicación y el informe PDF.
import type { kernelChart as en } from '../en/kernel-chart.ts';
import type { TextOf } from '../translate.ts';

export const kernelChart: TextOf<typeof en> = {
  yours: 'Tu kernel',
  kind: {
    yours: 'Tu kernel',
    reference: 'Kernels de referencia',
    builtin: 'Kernels integrados',
    cublas: 'Biblioteca cuBLAS',
    python: 'Tu kernel lanzado desde Python',
  },
  ofPeak: '{percent} del pico',
  notTimed: 'sin medir',
  peak: 'Pico del dispositivo: {value}',
  notes: {
    yoursNotTimed: 'Tu kernel no se ha medido: {reason}.',
    compileFailed: 'no compiló',
    verificationFailed: 'su salida no coincide con la referencia',
    noTiming: 'no llegó ninguna medida de tiempo',
    comparisonError: '{title}: sin barra ({reason}).',
    unverified: '{title}: medido, pero su salida no coincide con la referencia.',
    peakUnknown: 'No se conoce el pico del dispositivo para esta métrica, así que no se dibuja la línea del pico.',
  },
  empty: 'No se midió nada de esta ejecución.',
  description:
    '{metric} de tu kernel y de los kernels con los que se compara: nada dibujado. | {metric} de tu kernel y de los kernels con los que se compara: una barra. | {metric} de tu kernel y de los kernels con los que se compara: {count} barras; el más rápido es {fastest}.',
};
