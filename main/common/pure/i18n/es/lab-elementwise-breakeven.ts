// elementwise-breakeven en español: hallazgos y series (las mismas claves que ../en/elementwise-breakeven.ts) y la descripción del laboratorio.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { elementwiseBreakeven as en } from '../en/lab-elementwise-breakeven.ts';

export const elementwiseBreakeven: TextOf<typeof en> = {
  series: {
    'add-cpu': 'add en la CPU',
    'add-gpu-transfers': 'add en la GPU con transferencias',
    'add-gpu-resident': 'add en la GPU con datos residentes',
    'mul-cpu': 'mul en la CPU',
    'mul-gpu-transfers': 'mul en la GPU con transferencias',
    'mul-gpu-resident': 'mul en la GPU con datos residentes',
    'exp-cpu': 'exp en la CPU',
    'exp-gpu-transfers': 'exp en la GPU con transferencias',
    'exp-gpu-resident': 'exp en la GPU con datos residentes',
    'add-torch-cpu': 'add de PyTorch en la CPU',
    'add-torch-transfers': 'add de PyTorch en la GPU con transferencias',
    'add-torch-resident': 'add de PyTorch en la GPU con datos residentes',
    'mul-torch-cpu': 'mul de PyTorch en la CPU',
    'mul-torch-transfers': 'mul de PyTorch en la GPU con transferencias',
    'mul-torch-resident': 'mul de PyTorch en la GPU con datos residentes',
    'exp-torch-cpu': 'exp de PyTorch en la CPU',
    'exp-torch-transfers': 'exp de PyTorch en la GPU con transferencias',
    'exp-torch-resident': 'exp de PyTorch en la GPU con datos residentes',
  },
  paths: { 'gpu-transfers': 'GPU con transferencias', 'gpu-resident': 'GPU con datos residentes' },
  cpuNames: { cpu: 'la versión de GPU Lab en la CPU', 'torch-cpu': 'PyTorch en la CPU' },
  inPanel: {
    cpu: 'CPU',
    'gpu-transfers': 'GPU con transferencias',
    'gpu-resident': 'GPU con datos residentes',
    'torch-cpu': 'PyTorch en la CPU',
    'torch-transfers': 'PyTorch en la GPU con transferencias',
    'torch-resident': 'PyTorch en la GPU con datos residentes',
  },
  findings: {
    between: '{op}: la {path} pasa a ser {target}× más rápida que {cpu} a partir de unos {size} elementos{at}.{beside}',
    betweenRange: '{op}: la {path} pasa a ser {target}× más rápida que {cpu} a partir de unos {size} elementos (en algún punto entre {low} y {high}, dentro de la incertidumbre de las medianas){at}.{beside}',
    belowRange: '{op}: la {path} ya es {target}× más rápida que {cpu} en el tamaño más pequeño, {size} elementos{at}.{beside}',
    never: '{op}: la {path} no llega a ser {target}× más rápida que {cpu} en los tamaños medidos (como mucho {ratio}, con {size} elementos){at}.{beside}',
    at: '; con {reference} elementos, su velocidad es {ratio} la de {cpu}',
    besideBetween: ' Frente a {cpu}, a partir de unos {size} elementos.',
    besideRange: ' Frente a {cpu}, a partir de unos {size} elementos (en algún punto entre {low} y {high}, dentro de la incertidumbre de las medianas).',
    besideBelow: ' Frente a {cpu}, ya en el tamaño más pequeño, {size} elementos.',
    besideNever: ' Frente a {cpu}, en ningún tamaño medido (como mucho {ratio}, con {size} elementos).',
    cpuBandwidth: '{op} en la CPU mueve {bestRate} con {bestSize} elementos ({bestBytes} de arrays), pero {largeRate} con {largeSize} ({largeBytes}): {drop} más lento{cause}.',
    cacheFits: '. Los arrays más pequeños caben en la caché de último nivel, de {cache}; los más grandes llegan desde la memoria principal',
    cacheExceeded: '. Ambos superan la caché de último nivel, de {cache}, así que la caché no explica la diferencia',
    copiesCost: '{op}: con {reference} elementos, mantener los datos en la GPU es {ratio} más rápido que copiarlos de ida y vuelta en cada operación{times}.',
    copiesTimes: ' ({resident} con datos residentes frente a {withCopies} con copias)',
    torchBetween: '{op} en PyTorch (el código del cuaderno): la {path} pasa a ser {target}× más rápida que PyTorch en la CPU a partir de unos {size} elementos{at}.',
    torchBetweenRange:
      '{op} en PyTorch (el código del cuaderno): la {path} pasa a ser {target}× más rápida que PyTorch en la CPU a partir de unos {size} elementos (en algún punto entre {low} y {high}, dentro de la incertidumbre de las medianas){at}.',
    torchBelowRange: '{op} en PyTorch (el código del cuaderno): la {path} ya es {target}× más rápida que PyTorch en la CPU en el tamaño más pequeño, {size} elementos{at}.',
    torchNever: '{op} en PyTorch (el código del cuaderno): la {path} no llega a ser {target}× más rápida que PyTorch en la CPU (como mucho {ratio}, con {size} elementos){at}.',
    torchAt: '; con {reference} elementos, su velocidad es {ratio} la de PyTorch en la CPU',
  },
};

export const elementwiseBreakevenDescriptor: DescriptorText = {
  title: 'Punto de equilibrio elemento a elemento: ¿cuándo compensa la GPU?',
  summary: 'add, mul y exp sobre 10² … 10⁸ elementos float32: la CPU frente a la GPU, con y sin las copias; el tamaño a partir del cual la GPU es 2 veces más rápida.',
  explanation: [
    'Una operación elemento a elemento hace una o dos operaciones aritméticas por elemento y lee y escribe cada elemento una sola vez. La limita el ancho de banda de la memoria, no la aritmética, y con arrays pequeños, los costes fijos: lanzar un kernel cuesta unos pocos microsegundos y una copia por PCIe tiene una latencia de unos diez.',
    'Este laboratorio cronometra la misma operación con tamaños desde cien hasta cien millones de elementos, en la CPU (con todos sus núcleos, salvo que el parámetro de hilos de CPU diga menos) y dos veces en la GPU: una copiando las entradas a la GPU y el resultado de vuelta dentro del tramo cronometrado, que es lo que paga un programa que llama a la GPU con arrays de la memoria del host, y otra con los datos ya en la GPU. Las tres se miden con el reloj del host, con el lanzamiento y la sincronización incluidos, porque eso es lo que espera un programa; los eventos CUDA dejarían fuera la latencia del lanzamiento y favorecerían a la GPU en los tamaños pequeños. El punto de equilibrio se lee en la curva de aceleración, interpolando sobre ejes logarítmicos entre los dos tamaños medidos que lo rodean.',
    'Las llamadas de pocos microsegundos se cronometran por lotes: cada muestra repite la operación seguida durante al menos 5 ms y da la media de una llamada (el registro de cada punto guarda cuántas fueron), tal como la vería un programa que la llama dentro de un bucle; una sola lectura tan corta mediría sobre todo la fluctuación del reloj y del planificador. Los hilos de la CPU se reparten cada array en trozos pequeños a medida que van quedando libres, de modo que un núcleo que se retrasa (porque tarda en despertar o porque otro programa lo ocupa) solo retrasa sus trozos, no la llamada entera.',
    'Con copias, la GPU rara vez gana en add y mul: las copias mueven tantos bytes como los que la CPU tiene que leer de todos modos, y PCIe es más lento que la memoria de la propia CPU. exp hace más aritmética por byte, así que la GPU puede amortizar antes sus copias. Con los datos residentes en la GPU, gana en las tres en cuanto el array es lo bastante grande para ocultar la latencia del lanzamiento.',
  ],
  lookFor: [
    'El tamaño más pequeño en el que la GPU es 2 veces más rápida, para cada operación, con y sin copias (la tabla del ejercicio del curso).',
    'La aceleración con un millón de elementos: por debajo de 1, la CPU es más rápida.',
    'Lo planos que son los tiempos de la GPU en los tamaños pequeños: esa meseta es la latencia del lanzamiento y de la copia.',
  ],
  parameters: {
    ops: { label: 'Operaciones', description: 'Las operaciones elemento a elemento que se cronometran.' },
    minExponent: { label: 'Tamaño más pequeño', description: 'El array más pequeño tiene 10 elevado a este valor elementos.' },
    maxExponent: {
      label: 'Tamaño más grande',
      description: 'El array más grande tiene 10 elevado a este valor elementos (10⁸ float32 = 381 MiB por array); no puede ser menor que el más pequeño.',
    },
    pointsPerDecade: { label: 'Tamaños por década', description: 'Cuántos tamaños se miden por cada factor de diez.' },
    target: { label: 'Aceleración objetivo', description: 'El punto de equilibrio que se da es el tamaño a partir del cual la GPU es este número de veces más rápida.' },
  },
  presets: {
    full: { label: 'Barrido completo, 10² … 10⁸', description: 'add, mul y exp desde cien hasta cien millones de elementos, con dos tamaños por década.' },
    'seed-003': {
      label: 'Los tamaños del artículo, 10² … 10⁶ (HPC con GPU 3/22)',
      description: 'Los tamaños de la tabla del ejercicio, uno por década; puede que la GPU no llegue a ser 2 veces más rápida en ninguno de ellos.',
    },
    fine: { label: 'Fino, 4 tamaños por década', description: 'Cuatro tamaños por década para afinar el punto de equilibrio, con el doble de puntos que el barrido completo.' },
  },
};
