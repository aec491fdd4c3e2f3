// timing-pitfalls en español: hallazgos y series (las mismas claves que ../en/timing-pitfalls.ts) y la descripción del laboratorio.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { timingPitfalls as en } from '../en/lab-timing-pitfalls.ts';

export const timingPitfalls: TextOf<typeof en> = {
  series: {
    'gpu-no-sync': 'GPU: sin sincronizar frente a eventos CUDA (incorrecto)',
    'gpu-events': 'GPU: sin sincronizar frente a eventos CUDA (correcto)',
    'gpu-cold': 'GPU: primera llamada en frío frente a llamadas en caliente (incorrecto)',
    'gpu-warm': 'GPU: primera llamada en frío frente a llamadas en caliente (correcto)',
    'cpu-cold': 'CPU: primera llamada en frío frente a llamadas en caliente (incorrecto)',
    'cpu-warm': 'CPU: primera llamada en frío frente a llamadas en caliente (correcto)',
    'cpu-one-thread': 'CPU: un hilo frente a todos los hilos (incorrecto)',
    'cpu-all-threads': 'CPU: un hilo frente a todos los hilos (correcto)',
    'torch-no-sync': 'PyTorch: sin sincronizar frente a eventos CUDA (incorrecto)',
    'torch-events': 'PyTorch: eventos CUDA (correcto)',
    'torch-time-time': 'PyTorch: time.time() tras synchronize() frente a eventos CUDA',
    'torch-cold': 'PyTorch: primera llamada de un proceso nuevo frente a llamadas en caliente (incorrecto)',
    'torch-warm': 'PyTorch: primera llamada de un proceso nuevo frente a llamadas en caliente (correcto)',
  },
  points: {
    'gpu-cold': 'GPU, primera llamada (en frío)',
    'cpu-cold': 'CPU, primera llamada (en frío)',
    'gpu-no-sync': 'GPU, reloj parado al lanzar',
    'gpu-events': 'GPU, eventos CUDA',
    'gpu-warm': 'GPU, en caliente',
    'cpu-warm': 'CPU, en caliente',
    'cpu-one-thread': 'CPU, un hilo',
    'cpu-all-threads': 'CPU, los {threads} hilos',
    'torch-no-sync': 'PyTorch, reloj parado al lanzar',
    'torch-events': 'PyTorch, eventos CUDA',
    'torch-time-time': 'PyTorch, time.time() tras synchronize()',
    'torch-cold': 'PyTorch, primera llamada de un proceso nuevo (en frío)',
    'torch-warm': 'PyTorch, en caliente',
  },
  findings: {
    sync: 'Sin sincronizar, parece que el GEMM tarda {wrong}; los eventos CUDA muestran que tarda {right}, {ratio} más. El reloj se paró cuando volvió la llamada de lanzamiento, mucho antes de que la GPU terminara.',
    coldWithin: 'En la {side}, la primera llamada en frío ({cold}) queda dentro de la dispersión de las llamadas en caliente (de {min} a {max}, mediana {median}): con este tamaño no se aprecia ningún coste inicial.',
    coldBelow: 'En la {side}, la primera llamada en frío ({cold}) fue más rápida que todas las llamadas en caliente (de {min} a {max}, mediana {median}): con este tamaño no se aprecia ningún coste inicial.',
    coldSmall: 'La primera llamada en frío en la {side} tardó {cold}, frente a {median} de una llamada en caliente (llamadas en caliente: de {min} a {max}): {extra} más, {ratio}, un pequeño coste inicial. {cause}',
    coldLarge: 'La primera llamada en frío en la {side} tardó {cold}, frente a {median} de una llamada en caliente (llamadas en caliente: de {min} a {max}): {extra} más, {ratio}. Si cronometras sin calentamiento, ese coste acaba en la cifra. {cause}',
    coldCauseGpu: 'Esta ejecución no mide de qué se compone ese coste; los sospechosos habituales son los buffers recién creados, la primera llamada a cuBLAS con esta forma sobre un handle nuevo y las cachés frías.',
    coldCauseCpu: 'Esta ejecución no mide de qué se compone ese coste; los sospechosos habituales son un buffer de salida que se toca por primera vez (sus páginas se asignan durante la llamada) y las cachés y los hilos de la biblioteca, que arrancan en frío.',
    threadsWeak: 'Aquí no se distinguen todos los hilos ({right}) de uno solo ({wrong}): puede que otro programa esté usando los demás núcleos o que la biblioteca haya ignorado el número de hilos.',
    threadsSlower: 'Todos los hilos ({right}) fueron más lentos que uno solo ({wrong}), {ratio} el tiempo: puede que otro programa esté usando los demás núcleos o que la matriz sea demasiado pequeña para repartirla.',
    threadsBeyond: 'Un hilo de la CPU tarda {wrong} y los {threads} hilos, {right}: {ratio} más rápido, más de lo que {threads} hilos pueden dar por sí solos. Esta ejecución no muestra qué más frenó al hilo único, así que toma la proporción con cautela.',
    threads: 'Un hilo de la CPU tarda {wrong} y todos los hilos, {right}: {ratio} más rápido. Comparar una GPU con un solo hilo de la CPU exagera la ventaja de la GPU en ese mismo factor.',
    torchSync: 'En PyTorch, un reloj del host que se para cuando vuelve torch.matmul(a, b), sin torch.cuda.synchronize(), marca {wrong}; los eventos CUDA marcan {right}, {ratio} eso. El lanzamiento volvió mucho antes de que la GPU terminara.',
    torchSyncUnclear: 'En PyTorch, un reloj del host que se para cuando vuelve torch.matmul(a, b), sin torch.cuda.synchronize(), marca {wrong}, y los eventos CUDA, {right}: sus intervalos no permiten distinguirlos en esta ejecución.',
    torchTime: 'En PyTorch, time.time() alrededor de torch.matmul(a, b) y torch.cuda.synchronize() (el timing_numba_GPU del cuaderno) marca {wrong}, y los eventos CUDA, {right}: {ratio} lo que marcan los eventos. El reloj del host cuenta también el lanzamiento y la espera de la sincronización, que los eventos dejan fuera.',
    torchTimeAgree: 'En PyTorch, time.time() alrededor de torch.matmul(a, b) y torch.cuda.synchronize() (el timing_numba_GPU del cuaderno) marca {wrong}, y los eventos CUDA, {right}: sus intervalos no permiten distinguirlos en esta ejecución.',
    torchTimeBelow: 'En PyTorch, time.time() alrededor de torch.matmul(a, b) y torch.cuda.synchronize() marca {wrong}, menos que los eventos CUDA ({right}): los dos relojes no coinciden en esta ejecución, y ella no muestra por qué.',
    coldCauseTorch: 'Esta ejecución no mide de qué se compone ese coste; en un proceso de Python nuevo, los sospechosos habituales son PyTorch creando su handle de cuBLAS y su espacio de trabajo en el primer producto, la carga del kernel y las cachés frías. El punto en frío de GPU Lab crea su handle antes de poner en marcha el reloj.',
  },
};

export const timingPitfallsDescriptor: DescriptorText = {
  title: 'Errores al cronometrar: el mismo trabajo medido mal y bien',
  summary: 'Sin sincronizar frente a eventos CUDA, una primera llamada en frío frente a llamadas en caliente, un hilo de la CPU frente a todos.',
  explanation: [
    'La GPU trabaja de forma asíncrona: lanzar un kernel devuelve el control enseguida, y la GPU sigue trabajando mientras la CPU continúa con lo suyo. Si lees el reloj justo después del lanzamiento, mides lo que se tardó en encolar el trabajo, no en hacerlo. Las formas correctas son los eventos CUDA, que se registran en la propia línea de tiempo de la GPU, o sincronizar antes de leer el reloj del host.',
    'La primera llamada a cualquier cosa paga costes que solo se pagan una vez: cargar una biblioteca, crear un contexto CUDA o un handle de cuBLAS, compilar o cargar kernels, que el sistema operativo asigne página a página la memoria nueva. Las ejecuciones de calentamiento dejan esos costes fuera de la cifra que comparas. Aquí el proceso de cómputo ya ha cargado las bibliotecas y ha creado el contexto y el handle antes de que arranque el reloj, así que el punto en frío solo recoge lo que queda: buffers nuevos, la primera llamada con estas dimensiones, cachés frías. Puede ser poco; la primerísima llamada a la GPU de un script paga además la carga.',
    'Bibliotecas como NumPy y PyTorch usan todos los núcleos de la CPU. Comparar una GPU con un solo hilo de la CPU, o una biblioteca multihilo con un bucle de un solo hilo, hace que cualquier aceleración parezca mayor de lo que es: indica el número de hilos, o mide las dos cosas, como aquí.',
  ],
  lookFor: [
    'Cuántas veces más corto es el tiempo sin sincronizar que el tiempo real.',
    'Cuánto más lenta es la primera llamada que las llamadas en caliente, y si la diferencia sobresale de la dispersión propia de esas llamadas.',
    'Lo que se gana con todos los hilos de la CPU frente a uno solo.',
  ],
  parameters: {
    n: { label: 'Tamaño de matriz N', description: 'El tamaño del GEMM N×N en float32 con el que se muestra cada error.' },
  },
  presets: {
    default: { label: 'N = 2048', description: 'Un GEMM lo bastante largo para ver con claridad cada error.' },
    small: { label: 'N = 256: mandan los costes de lanzamiento', description: 'Tan poco trabajo que un reloj sin sincronizar apenas marca nada y la primera llamada es casi todo arranque.' },
  },
};
