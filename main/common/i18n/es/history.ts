// El historial en español: las ejecuciones guardadas, sus filtros, el borrado, la exportación y la elección de dos
// ejecuciones para compararlas.
import type { TextOf } from '../translate.ts';
import type { history as historyEn } from '../en/history.ts';

export const history: TextOf<typeof historyEn> = {
  title: 'Historial',
  intro: 'Todas las ejecuciones guardadas en este ordenador, de la más reciente a la más antigua. Abre una para ver sus resultados o exportar sus datos, o marca dos para compararlas.',
  loading: 'Leyendo las ejecuciones guardadas…',
  failed: 'No se han podido leer las ejecuciones guardadas: {error}',
  retry: 'Reintentar',
  empty: {
    title: 'Todavía no hay ejecuciones',
    body: 'Abre un laboratorio, elige sus parámetros y pulsa Ejecutar: cada ejecución se guarda aquí, con sus muestras, para volver a abrirla, exportarla o compararla.',
    action: 'Ir a los laboratorios',
  },
  filters: {
    label: 'Filtrar las ejecuciones',
    lab: 'Laboratorio',
    device: 'Dispositivo',
    allLabs: 'Todos los laboratorios',
    allDevices: 'Todos los dispositivos',
    cpuOnly: '{id} (solo CPU)',
    count: '{shown} de {total} ejecución | {shown} de {total} ejecuciones',
    noMatch: 'Ninguna ejecución cumple estos filtros.',
    clear: 'Mostrar todas las ejecuciones',
  },
  table: {
    caption: 'Ejecuciones guardadas, de la más reciente a la más antigua',
    compare: 'Comparar',
    lab: 'Laboratorio',
    device: 'Dispositivo',
    started: 'Inicio',
    duration: 'Duración',
    status: 'Estado',
    points: 'Puntos',
    pointsHint: 'Mediciones de la ejecución: una por cada tamaño y serie del laboratorio.',
    export: 'Exportar',
    actions: 'Acciones',
  },
  run: {
    name: '{lab} del {date}',
    notFinished: 'sin terminar',
  },
  duration: {
    ms: '{value} ms',
    seconds: '{value} s',
    minutes: '{minutes} min {seconds} s',
    hours: '{hours} h {minutes} min',
  },
  status: {
    interrupted: 'GPU Lab se detuvo antes de que terminara la ejecución; se conservan los puntos medidos hasta entonces.',
  },
  actions: {
    open: 'Abrir la ejecución {run}',
    delete: 'Borrar',
    deleteLabel: 'Borrar la ejecución {run}',
    deleteRunning: 'Una ejecución en curso no se puede borrar: cancélala antes en la página de su laboratorio, o espera a que termine.',
    json: 'JSON',
    jsonLabel: 'Exportar la ejecución {run}: JSON, el registro completo con todas las muestras',
    csv: 'CSV de puntos',
    csvLabel: 'Exportar la ejecución {run}: CSV de puntos, una fila por punto con sus estadísticas',
    samples: 'CSV de muestras',
    samplesLabel: 'Exportar la ejecución {run}: CSV de muestras, una fila por muestra sin procesar',
    exportFailed: 'No se ha podido exportar {run}: {error}',
    deleted: 'Se ha borrado la ejecución {run}.',
  },
  confirm: {
    title: '¿Borrar esta ejecución?',
    body: 'La ejecución {run} en {device}, que no midió ningún punto, se borrará de este ordenador. No se puede deshacer; expórtala antes si puedes necesitar sus datos. | La ejecución {run} en {device}, con su único punto, se borrará de este ordenador. No se puede deshacer; expórtala antes si puedes necesitar sus datos. | La ejecución {run} en {device}, con sus {points} puntos, se borrará de este ordenador. No se puede deshacer; expórtala antes si puedes necesitar sus datos.',
    delete: 'Borrar la ejecución',
    deleting: 'Borrando…',
    keep: 'Conservarla',
    failed: 'No se ha borrado la ejecución: {error}',
  },
  compare: {
    title: 'Comparar dos ejecuciones',
    pickLabel: 'Comparar la ejecución {run}',
    hint: 'Marca dos ejecuciones en la columna Comparar.',
    picked: 'Elegida una de las dos ejecuciones: | Elegidas las dos ejecuciones:',
    remove: 'Desmarcar {run}',
    button: 'Comparar',
    tooMany: 'Ya hay dos ejecuciones elegidas: desmarca una antes de elegir {run}.',
    sameLab: 'Las dos ejecuciones son del mismo laboratorio: sus gráficas se dibujan superpuestas.',
    differentLabs:
      'Estas ejecuciones son de laboratorios distintos: la comparación las muestra una junto a otra, pero solo superpone las gráficas de dos ejecuciones del mismo laboratorio.',
  },
};
