// La vista del profesor de una clase en la aplicación: los alumnos, los límites, la cola, la tabla de cada laboratorio
// con los números principales de los alumnos y las exportaciones de la clase. Bajo "classroom.teacher".
import type { classroomTeacher as english } from '../en/classroom-teacher.ts';
import type { TextOf } from '../translate.ts';

export const classroomTeacher: TextOf<typeof english> = {
  nav: 'Clase',
  title: 'La clase {className}',
  intro:
    'La última ejecución de cada alumno en cada laboratorio y configuración, con los números principales del laboratorio y el intervalo en que está cada uno. Un número se marca solo si todo su intervalo queda fuera del rango de la clase: la mitad central de los valores de los alumnos, ampliada una vez y media su anchura por cada lado (en escala logarítmica), en cuanto {min} alumnos tienen un valor.',
  onlyTeacher: 'Esta página es del profesor: muestra las ejecuciones de todos los alumnos.',
  refresh: 'Volver a leer la clase',
  reading: 'Leyendo la clase…',
  students: {
    title: 'Alumnos ({count})',
    none: 'Aún no se ha unido ningún alumno: dales el enlace de la clase.',
    runs: '{count} ejecución | {count} ejecuciones',
    kernelRuns: '{count} ejecución de kernel | {count} ejecuciones de kernels',
    remove: 'Quitar',
    removeLabel: 'Quitar a {name}',
    confirmTitle: '¿Quitar a {name} de la clase?',
    confirmText: 'El token de {name} deja de funcionar en el acto y sus páginas abiertas se desconectan. Sus ejecuciones se quedan en la clase, para ti.',
    confirm: 'Quitar a {name}',
    keep: 'No quitarlo',
    removing: 'Quitando…',
  },
  caps: {
    title: 'Lo que puede pedir la ejecución de un alumno',
    maxPoints: 'Puntos que planifica una ejecución, como mucho',
    maxBytes: 'Memoria de su punto más grande, como mucho (bytes)',
    maxSeconds: 'Tiempo límite de una ejecución (segundos)',
    save: 'Guardar los límites',
    saving: 'Guardando…',
    saved: 'Guardado. Puntos que planifica una ejecución: {points}; memoria: {bytes}; tiempo: {seconds} s.',
  },
  queue: {
    title: 'La cola',
    empty: 'No hay nada en la cola.',
    teacher: 'tú',
    entry: '{student}: {what} en {device}',
    running: 'en marcha',
    waiting: '{ahead} por delante',
    cancel: 'Cancelar',
    cancelLabel: 'Cancelar la ejecución de {student}: {what}',
    cancelling: 'Cancelando…',
  },
  labs: {
    title: 'Los laboratorios',
    setup: 'En {device} · {count} alumno | En {device} · {count} alumnos',
    params: 'Parámetros: {params}',
    student: 'Alumno',
    run: 'Ejecución',
    status: 'Estado',
    removed: '{name} (quitado)',
    none: 'Ningún alumno ha ejecutado aún este laboratorio.',
    notRun: 'Aún sin ejecutarlo: {names}',
    everyone: 'Todos los alumnos han ejecutado este laboratorio.',
    earlier:
      'Una ejecución completada de una configuración anterior de un alumno queda fuera de estas tablas (se muestran las {max} configuraciones más recientes de cada alumno); el CSV tiene todas las ejecuciones. | {count} ejecuciones completadas de configuraciones anteriores de los alumnos quedan fuera de estas tablas (se muestran las {max} configuraciones más recientes de cada alumno); el CSV tiene todas las ejecuciones.',
    range: 'La clase: {range}',
    noRange: 'menos de {min} alumnos: sin rango, nadie marcado',
    noValue: 'sin un número único: {text}',
  },
  export: {
    title: 'Exportar la clase',
    csv: 'CSV de todas las ejecuciones',
    pdf: 'Informe de la clase (PDF)',
    writing: 'Escribiendo…',
  },
};
