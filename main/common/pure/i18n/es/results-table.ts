// La tabla de resultados de la aplicación en español, con las mismas claves que ../en/results-table.ts.
import type { TextOf } from '../translate.ts';
import type { resultsTable as en } from '../en/results-table.ts';

export const resultsTable: TextOf<typeof en> = {
  label: 'Resultados, una fila por punto',
  columns: {
    series: 'Serie',
    size: 'Tamaño',
    median: 'Mediana ± IC del 95 %',
    rate: 'Rendimiento',
    peak: '% del pico',
    speedup: 'Aceleración',
    samples: 'Muestras',
    verified: 'Verificado',
  },
  sortAscending: 'Ordenar por {column}, de menor a mayor',
  sortDescending: 'Ordenar por {column}, de mayor a menor',
  groups: {
    measured: 'Medido por GPU Lab: {count} punto | Medido por GPU Lab: {count} puntos',
    peer: 'El Python del curso: {count} punto | El Python del curso: {count} puntos',
    waived: 'Sin ejecutar: {count} punto | Sin ejecutar: {count} puntos',
    waivedWhy: 'Sin ejecutar: {count} punto ({reason}) | Sin ejecutar: {count} puntos, todos por el mismo motivo ({reason})',
  },
  speedupOver: '{speedup} sobre {baseline}',
  copy: {
    button: 'Copiar como CSV',
    copied: 'Copiado: {count} punto como CSV | Copiados: {count} puntos como CSV, con las columnas de la exportación CSV',
    failed: 'No se pudo copiar: {error}',
    live: 'El CSV se puede copiar cuando termine la ejecución.',
  },
  samples: {
    show: ', {size}: ver sus muestras',
    showPoint: ': ver sus muestras',
    title: 'Muestras de {point}',
    hint: 'Elige una fila para ver las muestras en que se basa su mediana.',
    close: 'Cerrar las muestras',
    clock: { events: 'Tiempo del dispositivo, eventos CUDA', host: 'Reloj del host', 'host-nosync': 'Reloj del host, detenido al volver el lanzamiento' },
    count: 'Una muestra, en el orden en que se tomó ({clock}): | {count} muestras, en el orden en que se tomaron ({clock}):',
    median: 'Mediana {median}; su intervalo de confianza del 95 %, {low} – {high} ({interval}).',
    medianNoInterval: 'Mediana {median}; muy pocas muestras para un intervalo de confianza.',
    spread: 'Mitad central (IQR) {iqr}; la más rápida {min}, la más lenta {max}.',
    none: 'Sin muestras: {reason}',
  },
};
