// Las palabras de los laboratorios en español, un módulo por laboratorio: las mismas claves que ../en/ (hallazgos y
// series) y lo que cada laboratorio dice de sí mismo (título, explicación, parámetros, preajustes), como en inglés.
// tests/unit/labs/lab-text.test.ts comprueba que no falte ni sobre ninguna clave y que cada mensaje use los mismos
// valores con nombre que en inglés.
import type { LabTextCatalog } from '../en/lab-text.ts';
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import { transferDescriptor, transfer } from './lab-transfer.ts';
import { dtypesDescriptor, dtypes } from './lab-dtypes.ts';
import { matmulDescriptor, matmul } from './lab-matmul.ts';
import { vectorFunctionDescriptor, vectorFunction } from './lab-vector-function.ts';
import { elementwiseBreakevenDescriptor, elementwiseBreakeven } from './lab-elementwise-breakeven.ts';
import { matmulBreakevenDescriptor, matmulBreakeven } from './lab-matmul-breakeven.ts';
import { timingPitfallsDescriptor, timingPitfalls } from './lab-timing-pitfalls.ts';
import { textToImageDescriptor, textToImage } from './lab-text-to-image.ts';

export const labText: TextOf<LabTextCatalog> = {
  common: {
    unknown: '?',
    recorded: '{text}',
    peers: {
      agree: '{peer} ({peerTime}) y {ours} de GPU Lab ({oursTime}) coinciden con un margen del {within} %: {ratio} el tiempo ({low} a {high}).',
      lessTimeSmall: '{peer} ({peerTime}) tarda entre un {least} y un {most} menos que {ours} de GPU Lab ({oursTime}): una diferencia pequeña pero constante, los intervalos no se solapan.',
      moreTimeSmall: '{peer} ({peerTime}) tarda entre un {least} y un {most} más que {ours} de GPU Lab ({oursTime}): una diferencia pequeña pero constante, los intervalos no se solapan.',
      lessTime: '{peer} ({peerTime}) tarda entre un {least} y un {most} menos que {ours} de GPU Lab ({oursTime}): los intervalos no se solapan, una distancia que conviene investigar.',
      moreTime: '{peer} ({peerTime}) tarda entre un {least} y un {most} más que {ours} de GPU Lab ({oursTime}): los intervalos no se solapan, una distancia que conviene investigar.',
      faster: '{peer} ({peerTime}) tarda {ratio} el tiempo de {ours} de GPU Lab ({oursTime}; {low} a {high}): más rápido, una distancia que conviene investigar.',
      slower: '{peer} ({peerTime}) tarda {ratio} el tiempo de {ours} de GPU Lab ({oursTime}; {low} a {high}): más lento, una distancia que conviene investigar.',
      unclear: '{peer} ({peerTime}) tarda {ratio} el tiempo de {ours} de GPU Lab ({oursTime}), pero los intervalos admiten de {low} a {high}: hay demasiado ruido para decir si coinciden con un margen del {margin} %.',
    },
    ratio: { ranged: '{ratio} (de {low} a {high})' },
    cpu: {
      inCache: ', por encima de los {memory} medidos desde la memoria principal: sus {bytes} de arrays caben en los {cache} de la caché de último nivel',
      aboveMemory: ', por encima de los {memory} medidos desde la memoria principal',

      ownBlas: 'la BLAS de la CPU de GPU Lab ({library})',
      ownBlasUnnamed: 'la BLAS de la CPU de GPU Lab',
      fastest: 'la serie de CPU más rápida medida, {cpu},',
    },
    run: {
      point: '{series}, {size}',
      sizeN: 'N = {n}',
      pointOf: '{series} {what}',
      analysis: 'el análisis',
      waiting: 'esperando a {device}: {user} (pid {pid}) está ejecutando {what} ahí desde {since}',
      holder: { lab: 'el laboratorio {name}', kernel: 'un kernel del ejercicio {name}', bench: 'el banco de pruebas', peers: 'las referencias de Python ({name})' },
      twoPoints: '{a}; {b}',
      threePoints: '{a}; {b}; {c}',
      waived: '{count} punto se OMITIÓ: {reason}. | {count} puntos se OMITIERON: {reason}.',
      noReason: 'no consta el motivo',
      notSaved:
        'No se pudo guardar la ejecución terminada (se intentó dos veces: {failure}); se conserva en memoria mientras este programa siga abierto y se guardará de nuevo cuando termine la próxima ejecución. Hasta entonces la copia en disco está incompleta, y se marcará como interrumpida si el programa se cierra antes.',
      verificationFailed:
        '{count} resultado no superó la verificación frente a la referencia en float64 y se muestra como fallido, no como un tiempo: {points}. | {count} resultados no superaron la verificación frente a la referencia en float64 y se muestran como fallidos, no como tiempos: {points}.',
      pointsFailed: '{count} punto no se pudo medir{first}. | {count} puntos no se pudieron medir{first}.',
      firstFailure: ' (el primero: {point}, {code})',
      noisy:
        '{count} punto es ruidoso (la incertidumbre de su mediana supera el ±5 %; el peor: {point}, {spread}): repite la medición antes de fiarte de él. | {count} puntos son ruidosos (la incertidumbre de sus medianas supera el ±5 %; el peor: {point}, {spread}): repite la medición antes de fiarte de ellos.',
      pointsSteal:
        '{count} punto se midió mientras el hipervisor cedía al menos el 5 % del tiempo de CPU a otras máquinas virtuales ({share} en {point}): sus muestras incluyen esperas que ninguna forma de medir evita. | {count} puntos se midieron mientras el hipervisor cedía al menos el 5 % del tiempo de CPU a otras máquinas virtuales (hasta el {share}, en {point}): sus muestras incluyen esperas que ninguna forma de medir evita.',
      gpuClockDropped:
        'El reloj de los SM de la GPU quedó un 5 % o más por debajo tras {count} punto que antes de él (de {from} a {to} MHz en {point}): la tarjeta se frenó (calor o consumo) mientras se medía. | El reloj de los SM de la GPU quedó un 5 % o más por debajo tras {count} puntos que antes de ellos (lo que más, de {from} a {to} MHz, en {point}): la tarjeta se frenó (calor o consumo) mientras se medían.',
      cpuClockDropped:
        'El reloj de la CPU quedó un 5 % o más por debajo tras {count} punto que antes de él (de {from} a {to} MHz en {point}): el procesador se frenó mientras se medía. | El reloj de la CPU quedó un 5 % o más por debajo tras {count} puntos que antes de ellos (lo que más, de {from} a {to} MHz, en {point}): el procesador se frenó mientras se medían.',
      steal:
        'El hipervisor cedió el {share} del tiempo de CPU de esta máquina a otras máquinas virtuales mientras se medían los puntos (tiempo robado, «steal»): en una máquina virtual compartida, los tiempos de la CPU y las copias desde memoria paginable varían de una muestra a otra en esa medida, y ninguna forma de medir lo evita.',
    },
  },
  transfer: transfer,
  dtypes: dtypes,
  matmul: matmul,
  'vector-function': vectorFunction,
  'elementwise-breakeven': elementwiseBreakeven,
  'matmul-breakeven': matmulBreakeven,
  'timing-pitfalls': timingPitfalls,
  'text-to-image': textToImage,
};

export const labDescriptors: Record<string, DescriptorText> = {
  transfer: transferDescriptor,
  dtypes: dtypesDescriptor,
  matmul: matmulDescriptor,
  'vector-function': vectorFunctionDescriptor,
  'elementwise-breakeven': elementwiseBreakevenDescriptor,
  'matmul-breakeven': matmulBreakevenDescriptor,
  'timing-pitfalls': timingPitfallsDescriptor,
  'text-to-image': textToImageDescriptor,
};

// Los parámetros que comparten casi todos los laboratorios, salvo donde uno los explica a su manera.
export const sharedParameters = {
  repeats: { label: 'Repeticiones', description: 'Las muestras para las que se planea el tiempo de cada punto: el motor sigue muestreando hasta que el intervalo del 95 % de la mediana queda dentro de ±2 % de ella, o hasta agotar el tiempo de unas tantas muestras, y toma al menos 6 (una, cuando una sola muestra supera el presupuesto); la sección de Método da las que tomó cada punto.' },
  threads: {
    label: 'Hilos de CPU',
    description: 'Hilos de la serie de la CPU; 0: todos los núcleos lógicos.',
  },
  warmup: {
    label: 'Ejecuciones de calentamiento',
    description: 'Ejecuciones sin cronometrar antes de las muestras: la carga de bibliotecas, el primer acceso a la memoria y la subida de las frecuencias de reloj quedan fuera de las cifras.',
  },
};

// Las unidades que acompañan a los valores de los parámetros.
export const units = { samples: 'muestras', runs: 'ejecuciones', threads: 'hilos', elements: 'elementos', 'log10 elements': 'log10 de elementos', bytes: 'bytes', steps: 'pasos', images: 'imágenes', '×': '×', '': '' };

// Y su forma para una sola: «1 ejecución».
export const unitsOne: Record<string, string> = { samples: 'muestra', runs: 'ejecución', threads: 'hilo', elements: 'elemento', bytes: 'byte', steps: 'paso', images: 'imagen' };
