// Los controles del informe PDF en español, en la página de una ejecución y en una comparación: el autor y el curso
// que figuran en él, el botón que lo guarda y qué fue del último.
import type { TextOf } from '../translate.ts';
import type { report as reportEn } from '../en/report.ts';

export const report: TextOf<typeof reportEn> = {
  legend: 'Informe PDF',
  author: 'Autor',
  authorHint: 'Tu nombre',
  course: 'Curso',
  courseHint: 'Curso o grupo',
  remembered: 'Los dos se recuerdan en este ordenador para el próximo informe.',
  save: 'Guardar el informe PDF',
  saving: 'Escribiendo el PDF…',
  saved: 'Guardado {filename} ({pages} página). | Guardado {filename} ({pages} páginas).',
  fileNames: {
    run: 'GPU Lab – {lab} – {date}',
    samples: 'GPU Lab – {lab} – {date} – muestras',
    comparison: 'GPU Lab – {lab} – {a} frente a {b}',
    comparisonLabs: 'GPU Lab – {first} {a} frente a {second} {b}',
    labs: 'GPU Lab – todos los laboratorios – {device} – {date}',
  },
  failed: 'No se ha podido escribir el informe: {error}',
  running: 'El informe se puede guardar cuando termine la ejecución.',
  labs: {
    title: 'Informe de todos los laboratorios',
    intro: 'Un PDF para el curso: la ejecución terminada más reciente de cada laboratorio en un dispositivo (una completada antes que una cancelada o fallida), un capítulo cada una, con índice.',
    device: 'Dispositivo',
    caption: 'Las ejecuciones que toma el informe en {device}',
    run: 'Ejecución',
    notRun: 'Sin ejecutar en este dispositivo: el informe lo dice.',
    legend: 'PDF de todos los laboratorios ({count} de {total} ejecutados)',
    none: 'Ningún laboratorio tiene aún una ejecución terminada en {device}.',
    failed: 'No se han podido leer las ejecuciones del informe: {error}',
    noCatalog: 'No se han podido leer los laboratorios, así que se nombran por su identificador: {error}',
    loading: 'Leyendo qué ejecuciones tomaría el informe…',
    unknown: 'No se sabe qué ejecuciones tomaría el informe: mira el mensaje de arriba.',
  },
  exports: {
    label: 'Datos de la ejecución {run}',
    json: 'JSON de la ejecución {run}',
    csv: 'CSV de la ejecución {run}',
  },
};
