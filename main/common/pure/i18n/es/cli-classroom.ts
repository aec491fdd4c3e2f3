// Lo que dice `gpu-lab classroom` en español (una parte del catálogo de la CLI, ./cli.ts, bajo `classroom`).
import type { classroom as english } from '../en/cli-classroom.ts';
import type { TextOf } from '../translate.ts';

export const classroom: TextOf<typeof english> = {
  help: `Uso: gpu-lab classroom export [--data-dir DIR] [--pdf FICHERO] [--csv FICHERO]

Escribe la clase de una carpeta de datos (la que gpu-lab serve --classroom NOMBRE guarda en ella) tal como la muestra la
vista del profesor:
  --pdf   el informe de la clase: el resumen de la clase en cada laboratorio (los números principales de los alumnos
          con sus intervalos, el rango de la clase, quién queda fuera de él, quién no ha ejecutado el laboratorio) y
          después las ejecuciones de cada alumno; en el idioma de --lang
  --csv   una fila por ejecución de un alumno: quién, qué laboratorio, en qué dispositivo, cuándo, su estado, sus
          parámetros y sus números principales con sus intervalos
Al menos uno de los dos; - escribe en la salida estándar (solo uno de ellos). El servidor de la clase puede seguir en
marcha: la exportación lee la carpeta y no cambia nada en ella.`,
  usage: {
    action: 'classroom hace "export", no "{value}"',
    actionNeeded: 'classroom necesita qué hacer: gpu-lab classroom export --pdf FICHERO o --csv FICHERO',
    fileNeeded: 'classroom export necesita --pdf FICHERO, --csv FICHERO o los dos',
    bothStdout: '--pdf y --csv no pueden ser ambos la salida estándar (-)',
  },
  wrote: 'escrito {path} ({what})',
  csvWhat: '{count} ejecución | {count} ejecuciones',
  pdfWhat: '{count} página | {count} páginas',
};
