// vector-function en español: hallazgos y series (las mismas claves que ../en/vector-function.ts) y la descripción del laboratorio.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { vectorFunction as en } from '../en/lab-vector-function.ts';

export const vectorFunction: TextOf<typeof en> = {
  series: {
    'cpu-single': 'CPU, un hilo',
    'cpu-threads': 'CPU, todos los hilos',
    'gpu-transfers': 'GPU con copias, kernel fusionado',
    'gpu-unfused': 'GPU con datos residentes, tres pasadas',
    'gpu-fused': 'GPU con datos residentes, kernel fusionado',
    'numpy-notebook': 'NumPy, como lo escribe el cuaderno',
    'numba-njit': 'Bucle Numba njit, un núcleo',
    'numba-parallel': 'Numba njit(parallel=True), todos los núcleos',
    'cupy-notebook': 'CuPy en la GPU, tal como se escribe',
    'cupy-fused': 'CuPy en la GPU, fusionado (cupy.fuse)',
    'cupy-copies': 'CuPy en la GPU con las copias',
    'numba-cuda-vectorize': 'Numba vectorize(target="cuda") en la GPU',
    'numba-cuda-vectorize-time': 'Numba vectorize(target="cuda") en la GPU, time.time()',
    'numba-cuda-vectorize-loop': 'Numba vectorize(target="cuda") en la GPU, eventos alrededor de un bucle',
    'numba-cuda-copies': 'Numba vectorize(target="cuda") con copias automáticas',
    'numba-cuda-copies-time': 'Numba vectorize(target="cuda") con copias automáticas, time.time()',
    'numba-cuda-copies-loop': 'Numba vectorize(target="cuda") con copias automáticas, eventos alrededor de un bucle',
  },
  findings: {
    webgpuF32:
      'En WebGPU las series de GPU se ejecutan en float32, no en el float64 del curso: WGSL no tiene tipo de coma flotante de 64 bits. El kernel fusionado mueve {fusedBytes} bytes por elemento y las tres pasadas {unfusedBytes}, la mitad que en float64.',
    threadsFlat:
      'Con esta precisión no se distinguen los {threads} hilos ({many}) de uno solo ({one}): o bien un solo núcleo a {rate} ya satura la memoria de esta máquina, o bien los demás núcleos estaban ocupados.',
    threadsSlower: 'Los {threads} hilos ({many}) fueron más lentos que uno solo ({one}), {ratio} el tiempo: los demás núcleos estaban ocupados, o repartir tan poco trabajo cuesta más de lo que aporta.',
    threadsScale: 'Con los {threads} hilos, el bucle de la CPU va {ratio} más rápido que con uno solo ({many} frente a {one}, {rate}{cache}).',
    fusion:
      'Fusionar las tres pasadas en un solo kernel lo hace {ratio} más rápido ({fused} frente a {unfused}): las tres pasadas mueven {unfusedBytes} bytes por elemento y el kernel fusionado {fusedBytes}, {bytesRatio} menos, porque el array intermedio nunca pasa por la memoria.',
    fusionLevel:
      'Aquí el kernel fusionado ({fused}) no es apreciablemente más rápido que las tres pasadas ({unfused}), aunque mueve {fusedBytes} bytes por elemento frente a {unfusedBytes}: con este tamaño, el tiempo lo marca algo distinto del tráfico de memoria.',
    bandwidth: 'El kernel fusionado mueve {size} en {time}: {rate}, el {share} del ancho de banda teórico de la memoria de la GPU ({peak}). La función está limitada por la memoria.',
    transferShare: 'Las copias son el {share} del tiempo total en la GPU ({withCopies} con copias, {resident} con los datos residentes){copies}.',
    copies: ': {size} por el bus en {time}, {rate} desde memoria paginable de la CPU',
    copiesSlower:
      'Con las copias, la GPU es más lenta que la CPU con todos sus hilos ({gpu} frente a {cpu}, {ratio} su velocidad): con tan poca aritmética por byte, mover los datos cuesta más que calcular.',
    copiesFaster: 'Incluso con las copias, la GPU alcanza {ratio} la velocidad de la CPU con todos sus hilos ({gpu} frente a {cpu}).',
    copiesLevel: 'Con las copias, no se distinguen la GPU ({gpu}) y la CPU con todos sus hilos ({cpu}) con esta precisión.',
    numpySlower:
      'NumPy tal como lo escribe el cuaderno ({numpy}) tarda {ratio} el tiempo del bucle de un hilo de GPU Lab ({one}): cada operador de a * x**2 + b * y + c crea un array temporal, {numpyBytes} bytes por elemento a través de la memoria frente a los {loopBytes} del bucle.',
    numpyFaster: 'NumPy tal como lo escribe el cuaderno ({numpy}) superó al bucle de un hilo de GPU Lab ({one}), {ratio} más rápido, aunque sus arrays temporales mueven {numpyBytes} bytes por elemento frente a los {loopBytes} del bucle.',
    numpyLevel: 'Con esta precisión no se distinguen NumPy tal como lo escribe el cuaderno ({numpy}) y el bucle de un hilo de GPU Lab ({one}), aunque sus arrays temporales mueven {numpyBytes} bytes por elemento frente a los {loopBytes} del bucle.',
  },
};

export const vectorFunctionDescriptor: DescriptorText = {
  title: 'Una función vectorial: bucles, hilos, copias y fusión de kernels',
  summary: 'z = a·x² + b·y + c sobre 5 M de valores float64: un hilo de la CPU, todos los hilos de la CPU, la GPU con copias, y kernels sin fusionar frente a uno fusionado.',
  explanation: [
    'Evaluar z = a·x² + b·y + c supone cinco operaciones por elemento sobre 24 bytes (leer x e y y escribir z, 8 bytes cada uno). Con esa proporción, a ningún procesador lo limita la aritmética: el tiempo es el que se tarda en hacer pasar los arrays por la memoria.',
    'El notebook del curso comparó un bucle con Numba (8 ms), NumPy (18 ms, más lento porque cada operador crea un array temporal) y CuPy con copias (20,7 ms) y sin ellas (4,4 ms). Aquí el mismo experimento se ejecuta con bucles nativos y kernels CUDA, y cada uno se comprueba frente a una referencia en float64.',
    'En la GPU, escribir la expresión como operaciones de arrays separadas lanza tres kernels, y cada uno lee y escribe arrays completos; un kernel fusionado lee x e y una sola vez y escribe z una sola vez. La fusión es, en la GPU, lo que a NumPy le falta y lo que Numba te da en la CPU.',
  ],
  lookFor: [
    'Cuánto ganan todos los hilos de la CPU sobre uno solo: un bucle limitado por la memoria deja de escalar en cuanto la memoria se satura.',
    'Qué parte del tiempo en la GPU se va en copias, y si la GPU sigue ganando a la CPU con ellas.',
    'Los GB/s del kernel fusionado frente al ancho de banda teórico de la GPU.',
  ],
  parameters: {
    elements: { label: 'Elementos', description: 'La longitud de los vectores x, y, z (float64).' },
    a: { label: 'a', description: 'El coeficiente de x².' },
    b: { label: 'b', description: 'El coeficiente de y.' },
    c: { label: 'c', description: 'El término independiente.' },
  },
  presets: {
    'seed-001': { label: '5 M de elementos (Laboratorio 6)', description: 'z = 3,5·x² + 2,8·y + 10 sobre 5.000.000 de valores float64, como en el notebook.' },
    large: { label: '50 M de elementos', description: 'Diez veces más grande (1,2 GB de arrays): muy por encima de cualquier caché, así que solo decide el ancho de banda de la memoria.' },
  },
};
