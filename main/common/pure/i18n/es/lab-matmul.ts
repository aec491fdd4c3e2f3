// matmul en español: hallazgos y series (las mismas claves que ../en/matmul.ts) y la descripción del laboratorio.
// «Tiled» se dice «con teselas» (tiles); «naive», «ingenuo».
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { matmul as en } from '../en/lab-matmul.ts';

export const matmul: TextOf<typeof en> = {
  series: {
    'cpu-blas': 'BLAS en la CPU',
    'gpu-transfers': 'cuBLAS en la GPU con transferencias',
    'gpu-cublas': 'cuBLAS en la GPU con datos residentes',
    'gpu-tiled-transfers': 'Kernel con teselas y transferencias',
    'gpu-tiled': 'Kernel con teselas en la GPU',
    'gpu-naive': 'Kernel ingenuo en la GPU',
    'numpy-matmul': 'Producto de NumPy (el cuaderno)',
    'torch-resident': 'PyTorch en la GPU, con datos residentes',
    'torch-copies': 'PyTorch en la GPU con .to() y .cpu()',
  },
  findings: {
    cpuRate: 'Con {threads} hilos, {cpu} multiplica las matrices en {time}: {rate}.',
    speedup: '{series}: {time}, {ratio} la velocidad de {cpu}{beside} ({rate}{peak}).',
    speedupNoRate: '{series}: {time}, {ratio} la velocidad de {cpu}{beside} (copias y producto en un mismo tiempo: sin rendimiento).',
    speedupBeside: ' {ratio} la de {cpu}',
    peakShare: ', el {share} del pico fp32 de la GPU',
    transferShare: 'Las transferencias son el {share} del tiempo total en la GPU ({withCopies} con copias, {resident} sin ellas){copies}.',
    transferShareLevel: 'Con las copias ({withCopies}) y sin ellas ({resident}) no se distinguen los tiempos en la GPU con esta precisión: lo que cuestan las copias no se nota en esta ejecución.',
    copies: ': {time} para llevar A y B a la GPU y traer C de vuelta, {size} a {rate} desde memoria paginable de la CPU (mira el laboratorio de transferencias)',
    copiesWebgpu: ': {time} para escribir A y B en la GPU con writeBuffer y leer C de vuelta a través de un búfer mapeado, {size} a {rate} (mira el laboratorio de transferencias)',
    tiling:
      'El kernel con teselas ({tiled}) es {ratio} más rápido que el ingenuo ({naive}): cada valor que trae de la memoria global sirve para 128 multiplicaciones-suma en lugar de una, y cada valor que lee de la memoria compartida sirve para 8.',
    tilingWgsl:
      'El kernel con teselas ({tiled}) es {ratio} más rápido que el ingenuo ({naive}): cada valor que trae de un búfer de almacenamiento sirve para 64 multiplicaciones-suma en lugar de una, y cada valor que lee de la memoria del grupo de trabajo sirve para 4.',
    tilingSlower: 'Aquí el kernel con teselas ({tiled}) fue más lento que el ingenuo ({naive}), {ratio} su tiempo: la reutilización que compran sus teselas no se nota en esta ejecución.',
    tilingLevel: 'Con esta precisión no se distinguen el kernel con teselas ({tiled}) y el ingenuo ({naive}): la reutilización que compran sus teselas no se nota en esta ejecución.',
    tiledFaster: 'Aquí el kernel con teselas es {ratio} más rápido que cuBLAS ({cublas} frente a {tiled}): {sameUnits}, así que un kernel con buenas teselas puede igualar a la biblioteca en algunos tamaños.',
    cublasClose:
      'cuBLAS es solo {ratio} más rápido que el kernel con teselas ({cublas} frente a {tiled}): el kernel con teselas ya hace lo que más importa, teselas en memoria compartida y 8×8 resultados por hilo en registros, y {sameUnits}. De qué se compone el resto no lo mide esta ejecución; lo habitual es que lo pongan las formas de tesela y el pipelining de cuBLAS, ajustados para esta GPU.',
    cublasFaster: 'cuBLAS es {ratio} más rápido que el kernel con teselas ({cublas} frente a {tiled}): bloqueo en registros, formas de tesela y pipelining ajustados para esta GPU; {sameUnits}.',
    libraryLevel: 'Con esta precisión no se distinguen cuBLAS ({cublas}) y el kernel con teselas ({tiled}): {sameUnits}, así que un kernel con buenas teselas puede igualar a la biblioteca en algunos tamaños.',
    sameUnits: 'los dos se ejecutan en las mismas unidades FMA de fp32 (la GEMM en fp32 no usa tensor cores; tf32, fp16, bf16 e int8 sí, mira el laboratorio de tipos de datos)',
  },
};

export const matmulDescriptor: DescriptorText = {
  title: 'Producto de matrices: CPU, GPU y lo que cuesta llegar a ella',
  summary: 'C = A·B con N = 7000 en float32, en la CPU (BLAS) y en la GPU: con y sin transferencias, y cuBLAS frente a dos kernels escritos a mano, uno ingenuo y otro con teselas.',
  explanation: [
    'Un producto de dos matrices N×N hace 2·N³ operaciones de coma flotante sobre 3·N² números: con N = 7000 son 686.000 millones de operaciones sobre 561 MiB. Cada número se usa N veces, así que lo que limita es la aritmética, no la memoria: aquí es donde brilla una GPU.',
    'El notebook del curso lo midió con una RTX 2080 Ti: 580 ms con NumPy en la CPU, 106,5 ms en la GPU contando las copias de A y B a la GPU y la de C de vuelta, y 50,4 ms con las matrices ya en la GPU. Este laboratorio repite el experimento como es debido: con calentamiento, con repeticiones y comprobando cada resultado con un nuevo cálculo en float64 de una muestra de sus elementos.',
    'Los kernels escritos a mano muestran lo que hace falta para acercarse a la biblioteca. El kernel ingenuo calcula un resultado por hilo leyendo directamente de la memoria global: dos lecturas por cada multiplicación-suma, así que el ritmo lo marcan las lecturas, no la aritmética. El kernel con teselas (tiles) asigna a cada bloque de 256 hilos una tesela de 128×128 de C. Carga en memoria compartida franjas de 128×16 de A y de 16×128 de B, de modo que cada valor traído de la memoria global sirve para 128 multiplicaciones-suma, y cada hilo guarda en registros un trozo de 8×8 de C, de modo que cada valor leído de la memoria compartida sirve para 8. Las franjas siguientes se cargan mientras se usan las actuales.',
    'cuBLAS hace lo mismo, con formas de tesela y un pipelining ajustados a cada GPU. Este laboratorio le pide aritmética fp32 (CUBLAS_COMPUTE_32F, sin TF32), que se ejecuta en las mismas unidades FMA de fp32 que los kernels escritos a mano: los tensor cores solo entran en juego con tf32, fp16, bf16 o int8, como muestra el laboratorio de tipos de datos.',
    'En un adaptador WebGPU no hay cuBLAS: los dos kernels se ejecutan en WGSL (shaders/wgsl/gemm.wgsl), y el kernel con teselas se mide también con las copias, en el lugar de cuBLAS. WebGPU solo garantiza 16 KiB de memoria del grupo de trabajo, así que su kernel con teselas asigna a cada grupo de trabajo de 256 invocaciones una tesela de 64×64 de C, cargada en franjas de 64×16 y de 16×64, y a cada invocación un trozo de 4×4: cada valor traído sirve para 64 multiplicaciones-suma, y cada valor leído de la memoria del grupo de trabajo, para 4.',
  ],
  lookFor: [
    'La aceleración de la GPU sobre la CPU con y sin transferencias, y qué parte del tiempo total se llevan las transferencias.',
    'Los GFLOP/s de cada versión, y lo lejos que queda cada una del pico teórico de la GPU.',
    'Cuánto gana el kernel con teselas sobre el ingenuo, y cuánto gana cuBLAS sobre el kernel con teselas.',
  ],
  parameters: {
    n: { label: 'Tamaño de matriz N', description: 'Las matrices son N×N en float32 (3·N²·4 bytes en total).' },
    cpuRepeats: { label: 'Repeticiones en la CPU', description: 'Muestras cronometradas en la CPU: con N = 7000, cada una tarda segundos en un portátil.' },
  },
  presets: {
    'seed-000': { label: 'N = 7000 (Laboratorio 6)', description: 'El producto de 7000×7000 en float32 del notebook (con una RTX 2080 Ti: 580 ms en la CPU, 106,5 ms con transferencias y 50,4 ms con los datos residentes).' },
    laptop: { label: 'N = 2000, para un portátil', description: 'Cuarenta veces menos trabajo: la parte de la CPU termina en segundos.' },
  },
};
