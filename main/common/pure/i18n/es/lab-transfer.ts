// transfer en español: hallazgos y series (las mismas claves que ../en/transfer.ts) y la descripción del laboratorio.
// Los sentidos de copia se escriben CPU→GPU, GPU→CPU y GPU→GPU, como en el curso, en lugar de host→device.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { transfer as en } from '../en/lab-transfer.ts';

export const transfer: TextOf<typeof en> = {
  series: {
    'h2d-pageable-sync': 'CPU→GPU, paginable, síncrona',
    'h2d-pageable-async': 'CPU→GPU, paginable, asíncrona',
    'h2d-pinned-sync': 'CPU→GPU, fijada, síncrona',
    'h2d-pinned-async': 'CPU→GPU, fijada, asíncrona',
    'd2h-pageable-sync': 'GPU→CPU, paginable, síncrona',
    'd2h-pageable-async': 'GPU→CPU, paginable, asíncrona',
    'd2h-pinned-sync': 'GPU→CPU, fijada, síncrona',
    'd2h-pinned-async': 'GPU→CPU, fijada, asíncrona',
    d2d: 'GPU→GPU',
    'webgpu-h2d-write-buffer': 'CPU→GPU, writeBuffer',
    'webgpu-h2d-mapped': 'CPU→GPU, búfer de subida mapeado',
    'webgpu-d2h-mapped': 'GPU→CPU, búfer intermedio mapeado',
    'torch-h2d-pageable': "PyTorch .to('cuda') desde memoria paginable",
    'torch-h2d-pinned': "PyTorch .to('cuda', non_blocking=True) desde memoria fijada",
    'torch-d2h-pageable': 'PyTorch .copy_() de vuelta a memoria paginable',
    'torch-d2h-pinned': 'PyTorch .copy_() de vuelta a memoria fijada',
  },
  directions: { h2d: 'CPU→GPU', d2h: 'GPU→CPU' },
  findings: {
    peak: '{series}: hasta {rate} (con copias de {at}); para llegar a la mitad hacen falta copias de {half} o más{latency}.',
    peakHalfAtSmallest: '{series}: hasta {rate} (con copias de {at}); ya llega a la mitad con la copia más pequeña medida, de {half}{latency}.',
    readWrite: '{series} (lectura + escritura)',
    latency: '; copiar {size} tarda {time}, cuando a {rate} sus bytes tardarían {bytesTime}: el resto es latencia',
    pinned: '{direction}: la memoria fijada alcanza {ratio} el ancho de banda de la memoria paginable ({pinned} frente a {pageable}).',
    d2dShare: 'Las copias GPU→GPU mueven {rate} (lectura + escritura), el {share} de los {peak} teóricos de la GPU.',
    uploadWriteFaster: 'Con {size}, writeBuffer ({written}) tarda menos que llenar un búfer de subida mapeado y copiarlo ({mapped}): el camino mapeado tarda {ratio} lo que writeBuffer.',
    uploadMappedFaster: 'Con {size}, llenar un búfer de subida mapeado y copiarlo ({mapped}) tarda menos que writeBuffer ({written}): writeBuffer tarda {ratio} lo que el camino mapeado.',
    uploadLevel: 'Con {size}, writeBuffer ({written}) y un búfer de subida mapeado copiado con copyBufferToBuffer ({mapped}) no se distinguen con esta precisión.',
    busVsMemory:
      'Copiar {size} dentro de la GPU tarda {inside}; traer esos mismos bytes por el bus ({series}) tarda {across}, {ratio} más ({insideRate} frente a {acrossRate}, contando cada byte una sola vez). Los datos que se quedan en la GPU cuestan mucho menos que los que viajan.',
  },
};

export const transferDescriptor: DescriptorText = {
  title: 'Transferencias entre CPU y GPU: ancho de banda, latencia y memoria fijada',
  summary: 'Ancho de banda de las copias de 1 KiB a 1 GiB: CPU→GPU y GPU→CPU (memoria paginable y fijada, copias síncronas y asíncronas) y GPU→GPU.',
  explanation: [
    'Una GPU discreta tiene su propia memoria. Los datos le llegan por PCIe (o NVLink), un bus varias veces más lento que la memoria de la CPU y decenas de veces más lento que la de la GPU. Además, cada copia paga una latencia fija de varios microsegundos, así que las copias pequeñas solo aprovechan una parte del ancho de banda del bus: la curva de GB/s según el tamaño sube y después se aplana.',
    'El sistema operativo puede mover de sitio la memoria ordinaria de la CPU (memoria paginable), así que el driver primero la copia a un búfer intermedio fijado y luego deja que el motor de copia de la GPU lo lea. La memoria fijada (page-locked) se ahorra ese paso, y es la única con la que una copia asíncrona puede solaparse de verdad con otro trabajo. El artículo del curso midió 11,45 ms frente a 7,32 ms al copiar una matriz float32 de 5000² (95,4 MiB), una mejora de 1,56×; la memoria fijada es un recurso limitado, así que resérvala para los búferes que copies a menudo.',
    'Las copias GPU→GPU no salen de la memoria de la GPU y muestran su ancho de banda; aquí se cuentan como lectura más escritura, para poder compararlas con el pico teórico de la memoria.',
  ],
  lookFor: [
    'El tamaño con el que cada curva llega a la mitad de su máximo: por debajo, manda la latencia.',
    'La memoria fijada frente a la paginable en los tamaños grandes.',
    'Las copias asíncronas desde memoria paginable: en realidad no son asíncronas y van a la velocidad de la memoria paginable.',
    'El ancho de banda GPU→GPU frente al del bus: el motivo para mantener los datos en la GPU.',
  ],
  parameters: {
    minBytes: { label: 'Copia más pequeña', description: 'A partir de este tamaño, cada uno es 4 veces el anterior.' },
    maxBytes: { label: 'Copia más grande', description: 'La copia más grande, como mínimo igual que la más pequeña; para las copias GPU→GPU la GPU necesita el doble de memoria libre.' },
    directions: { label: 'Sentidos de copia', description: 'Los sentidos que se miden: h2d (CPU→GPU), d2h (GPU→CPU) y d2d (GPU→GPU).' },
    hostMemory: { label: 'Memoria de la CPU', description: 'Los tipos de memoria de la CPU para las copias entre CPU y GPU: pageable (paginable) y pinned (fijada).' },
    modes: { label: 'Modos de copia', description: 'Copias síncronas (sync), o asíncronas (async) en un stream seguidas de una sincronización.' },
  },
  presets: {
    full: { label: 'Barrido completo, 1 KiB … 1 GiB', description: 'Todos los tamaños de 1 KiB a 1 GiB, multiplicando por 4, y las tres copias del curso (39,1 KiB, 3,81 MiB y 95,4 MiB): a la izquierda, la latencia; a la derecha, el ancho de banda del bus.' },
    'seed-003': { label: 'Los tamaños del artículo (HPC con GPU 3/22)', description: 'De 39,1 KiB a 95,4 MiB: las matrices float32 de 100², 1000² y 5000² que copia el curso, y tamaños en factores de 4 desde 39,1 KiB.' },
    quick: { label: 'Vistazo rápido, hasta 64 MiB', description: 'Solo copias entre CPU y GPU, de tamaños pequeños y medianos: unos segundos.' },
  },
};
