// Todo lo que `gpu-lab` le dice a quien lo usa, en español: las mismas claves que ./en.ts, con los mismos valores con
// nombre en cada mensaje. Se dirige al estudiante de tú. Quedan tal cual los nombres de las opciones, los id de los
// laboratorios, los códigos de error, las unidades y los nombres de las bibliotecas; los números llevan coma decimal.
import type { TextOf } from '../translate.ts';
import type { CliCatalog } from '../en/cli.ts';
import { batch } from './cli-batch.ts';
import { classroom } from './cli-classroom.ts';

export const cli: TextOf<CliCatalog> = {
  main: {
    usage: 'Uso: gpu-lab <comando> [opciones]',
    commands: 'Comandos:',
    more: 'Escribe `gpu-lab <comando> --help` para ver las opciones de un comando.',
    lang: 'Todos los comandos aceptan --lang en{\'|\'}es: el idioma de sus mensajes y del informe en PDF (por defecto, el del sistema, según LANGUAGE, LC_ALL, LC_MESSAGES o LANG).',
    exitCodes: 'Códigos de salida: 0 hecho y todos los resultados verificados; 1 una ejecución fallida, un resultado incorrecto u otro fallo; 2 uso o entrada incorrectos; 3 una ejecución que no midió nada (todos los puntos omitidos); 75 el dispositivo está ocupado con otra ejecución (--no-wait), o un trabajo de batch aún pendiente o en ejecución (batch status); 130 una ejecución cancelada con Ctrl-C, SIGTERM o SIGHUP.',
    unknownCommand: 'no existe el comando «{name}»',
  },
  commands: {
    batch: { summary: 'ejecuta laboratorios en los nodos de un clúster a través de Slurm, en una carpeta compartida; dice cómo va un trabajo' },
    classroom: { summary: 'escribe el informe de una clase (PDF) y sus ejecuciones (CSV) desde su carpeta de datos' },
    bench: {
      summary: 'mide las cargas de trabajo de referencia en un dispositivo',
      usage: `Uso: gpu-lab bench [--device cpu{'|'}cuda:N] [--json] [--threads N] [--scale F] [--no-wait]

Mide las cargas de trabajo de referencia en un dispositivo y muestra los tiempos mediano, mínimo y máximo, con los
GFLOP/s o los GB/s.
  --device cpu{'|'}cuda:N  el dispositivo que se mide (por defecto: cpu)
  --json               muestra un array JSON, un objeto por medida, en lugar de la tabla
  --threads N          hilos para las variantes multihilo de la CPU (por defecto: todos los núcleos lógicos)
  --scale F            multiplica cada tamaño por F, con 0 < F <= 1, para una prueba rápida (por defecto: 1)
  --no-wait            si otra ejecución está midiendo en el dispositivo, sale con 75 al momento en vez de esperarla`,
    },
    devices: {
      summary: 'lista la CPU y los dispositivos CUDA, sus picos teóricos y las bibliotecas encontradas',
      usage: `Uso: gpu-lab devices [--json]

Lista la CPU y los dispositivos CUDA con sus atributos y sus picos teóricos; si no hay ningún dispositivo CUDA,
explica por qué.
  --json   muestra en JSON la lista de dispositivos, el inventario de CUDA y las lecturas de telemetría`,
    },
    peers: {
      summary: 'el Python que usarían las series de referencia de los laboratorios: NumPy, PyTorch, CuPy, Numba, Transformers, PyCUDA y cuda.core, encontrados o por qué no',
      usage: `Uso: gpu-lab peers [--python RUTA] [--json]

Qué intérprete de Python usan las series de referencia de los laboratorios (el propio código del curso, cronometrado
junto al de GPU Lab), su versión y, para NumPy, PyTorch, CuPy, Numba, Transformers (el codificador de texto del
laboratorio de texto a imagen), PyCUDA y cuda.core (el lanzamiento desde Python del playground, Unidad 10): si se
encuentran o por qué no, la versión, la BLAS que usa NumPy y los dispositivos CUDA que ven PyTorch, CuPy, Numba,
PyCUDA y cuda.core (torch.cuda.is_available(), device_count() y los nombres de los dispositivos).
  --python RUTA  el intérprete al que preguntar (por defecto: $GPU_LAB_PYTHON, si no python3 del PATH); gpu-lab run
                 también lo acepta
  --json         muestra el informe en JSON`,
    },
    kernel: {
      summary: 'escribe un kernel de CUDA para un ejercicio: se compila, se verifica y se cronometra junto a los del motor',
      usage: `Uso: gpu-lab kernel list [--json]
     gpu-lab kernel show <ejercicio> [--kernel starter{'|'}<id-de-referencia>] [--hints]
     gpu-lab kernel run <ejercicio> ARCHIVO.cu{'|'}--kernel ID [--size N] [--block x[,y[,z]]] [--grid x[,y[,z]]]
                    [--device cuda:N] [--no-compare] [--no-wait] [--ptx] [--sass] [--json]
                    [--pdf ARCHIVO [--author NOMBRE] [--course NOMBRE]] [--data-dir CARPETA]
     gpu-lab kernel runs [--exercise <ejercicio>] [--json] [--data-dir CARPETA]

El banco de pruebas de kernels: seis ejercicios con una firma fija, un kernel de partida y soluciones de referencia.
kernel list  los ejercicios: id, título, firma, tamaño por defecto y métrica (--json: los descriptores, en inglés)
kernel show  el enunciado de un ejercicio, su firma, su trabajo y sus kernels; --hints añade las pistas; --kernel ID
             muestra solo el código de ese kernel: gpu-lab kernel show saxpy --kernel starter > saxpy.cu te da un
             archivo por el que empezar
kernel run   compila ARCHIVO con NVRTC para la GPU, lo lanza en el proceso de cómputo, lo compara con la CPU sobre
             datos aleatorios nuevos (con la salida llena de NaN de antemano) y después lo cronometra junto a los
             kernels de referencia del ejercicio y los del motor (cuBLAS cuando corresponde). Una vez en la GPU, la
             ejecución se guarda, termine como termine.
  --kernel   ejecuta ese kernel del ejercicio en vez de un ARCHIVO, tal como lo muestra kernel show --kernel ID
  --size     el tamaño del problema, n elementos o una matriz de N × N (por defecto, el del ejercicio)
  --block    hilos por bloque, p. ej. 256 o 16,16 (por defecto, los de la cabecera de lanzamiento del archivo, o si no
             los del ejercicio)
  --grid     bloques del grid, p. ej. 4096 o 256,256 (por defecto, el de la cabecera de lanzamiento del archivo, o si
             no un hilo por elemento de la salida)
  --device   la GPU (por defecto, el primer dispositivo CUDA)
  --no-compare  cronometra solo tu kernel
  --no-wait  si otra ejecución está midiendo en la GPU, sale con 75 al momento en vez de esperarla
  --ptx      muestra también el PTX que NVRTC generó de tu kernel, cada tramo de líneas bajo la línea de tu código de
             la que sale (compilado con -lineinfo)
  --sass     muestra también el código máquina (SASS) de tu kernel, tal como lo imprime nvdisasm con las líneas de tu
             código (o cuobjdump, sin ellas), donde esté instalado el CUDA toolkit
  --json     muestra la ejecución guardada en JSON (en inglés, sea cual sea el idioma)
{reportOptions}
  --verbose  todas las líneas del registro del proceso de cómputo (por defecto, solo caídas, procesos terminados y avisos)
kernel runs  las ejecuciones de kernels guardadas, de la más reciente a la más antigua (para un informe con algunas:
             gpu-lab report --kernel-run ID --pdf ARCHIVO)
Un archivo puede decir cómo se lanza en una línea de cabecera, como hacen todos los kernels de partida y de
referencia; --block y --grid mandan sobre ella:
  // launch: block=32x32 grid=cover shared=0
  block=X[xY[xZ]]   hilos por bloque
  grid=cover        un hilo por elemento de la salida; grid=tiles:WxH un bloque por cada W×H elementos;
                    grid=X[xY] ese grid
  shared=BYTES      memoria compartida dinámica por bloque, de 0 a 49152
Los mensajes del compilador salen como ARCHIVO:LÍNEA:COLUMNA: error: mensaje, para que un editor pueda saltar a ellos.
Códigos de salida de kernel run: 0 verificado; 1 un error de compilación, resultados incorrectos o una ejecución
fallida (se muestra su código de error: TIMEOUT, DEVICE_LOST…, o CUDA_UNAVAILABLE / LIBRARY_UNAVAILABLE si no hay GPU
o no hay NVRTC); 2 uso incorrecto; 75 la GPU está ocupada con otra ejecución (--no-wait).`,
    },
    labs: {
      summary: 'lista los laboratorios, sus parámetros y sus kernels',
      usage: `Uso: gpu-lab labs [LAB] [--json]

Lista todos los laboratorios con sus parámetros (valor por defecto, límites y unidad); con un LAB, solo ese, con lo que
explica y lo que conviene mirar en sus resultados. Con --json muestra sus descriptores (en inglés).`,
    },
    report: {
      summary: 'escribe un único informe en PDF con todos los laboratorios en un dispositivo, o con ejecuciones de kernels',
      usage: `Uso: gpu-lab report --all-labs --pdf ARCHIVO [--device cpu{'|'}cuda:N{'|'}webgpu:N] [--author NOMBRE] [--course NOMBRE] [--data-dir CARPETA]
     gpu-lab report --devices [--lab LAB] --pdf ARCHIVO [--author NOMBRE] [--course NOMBRE] [--data-dir CARPETA]
     gpu-lab report --kernel-run ID [--kernel-run ID …] --pdf ARCHIVO [--author NOMBRE] [--course NOMBRE] [--data-dir CARPETA]

Un solo PDF con todos los laboratorios: la última ejecución terminada de cada uno en un dispositivo, con índice y
números de página. Un laboratorio sin ninguna ejecución terminada en ese dispositivo aparece como no ejecutado. Con
--kernel-run en lugar de --all-labs: un PDF con esas ejecuciones de kernels (consulta \`gpu-lab kernel runs\`). Con
--devices: un laboratorio (--lab; por defecto todos los que tengan ejecuciones) en cada dispositivo que tenga una
ejecución terminada de él, la más reciente de cada uno lado a lado (los nodos de un clúster, ejecuciones importadas de
compañeros): el modelo de GPU, el controlador y el nodo de cada uno, las medianas de los puntos principales con sus
intervalos, y el tiempo de cada dispositivo frente al del primero donde midieron el mismo trabajo.
  --device   el dispositivo cuyas ejecuciones entran en el informe (por defecto: el de la ejecución terminada más reciente)
{reportOptions}`,
    },
    run: {
      summary: 'ejecuta un laboratorio en la CPU y en una GPU, muestra los resultados y los guarda',
      usage: `Uso: gpu-lab run <laboratorio> [--device cpu{'|'}cuda:N{'|'}webgpu:N] [--param nombre=valor …] [--json ARCHIVO] [--pdf ARCHIVO [--author NOMBRE] [--course NOMBRE]] [--data-dir CARPETA] [--quiet] [--no-wait]
                    [--peers all{'|'}none{'|'}numpy,torch,cupy,numba] [--python RUTA]

Ejecuta un laboratorio y guarda la ejecución en la carpeta de datos (por defecto $XDG_DATA_HOME/gpu-lab o
~/.local/share/gpu-lab).
  --device   la GPU que se compara con la CPU: un dispositivo CUDA o un adaptador WebGPU (véase gpu-lab devices; por
             defecto: el primer dispositivo CUDA; si no hay, solo la CPU)
  --param    un parámetro del laboratorio, p. ej. --param n=2000 --param sizes=100,500,1000 (consulta \`gpu-lab labs\`)
  --json     escribe además el registro de la ejecución en ARCHIVO (en inglés, sea cual sea el idioma)
{reportOptions}
  --quiet    sin líneas de progreso
  --verbose  todas las líneas del registro del proceso de cómputo (por defecto, solo caídas, procesos terminados y avisos)
  --no-wait  si otra ejecución (de cualquier usuario o programa) está midiendo en un dispositivo que el laboratorio
             necesita, sale con 75 al momento; sin esta opción la ejecución espera, y dice a quién
  --peers    el propio código Python del curso, cronometrado junto al de GPU Lab como series del laboratorio donde
             las tiene: all (por defecto: cada biblioteca encontrada; las demás, omitidas con el motivo), none, o una
             lista como numpy,torch
  --python   el intérprete para esas series (por defecto: $GPU_LAB_PYTHON, si no python3; consulta gpu-lab peers)
Códigos de salida: 0 si termina sin ningún punto fallido; 1 si falla o falla algún punto (se muestra el código de
error: VERIFICATION_FAILED si los resultados son incorrectos); 2 si el uso o los parámetros no son válidos, incluido
un --device que esta máquina no tiene; 3 si no se midió nada (todos los puntos omitidos); 75 si un dispositivo está
ocupado con otra ejecución (--no-wait); 130 si se cancela (Ctrl-C, SIGTERM, SIGHUP), conservando los puntos medidos.`,
    },
    runs: {
      summary: 'lista, muestra, exporta, borra o genera el informe de las ejecuciones guardadas',
      usage: `Uso: gpu-lab runs list [--json] [--data-dir CARPETA]
     gpu-lab runs show <id-de-ejecución> [--json] [--data-dir CARPETA]
     gpu-lab runs export <id-de-ejecución> [--format json{'|'}csv{'|'}csv-samples] [--reference] [--out ARCHIVO] [--data-dir CARPETA]
     gpu-lab runs import RUTA … [--json] [--data-dir CARPETA]
     gpu-lab runs delete <id-de-ejecución> [--data-dir CARPETA]
     gpu-lab runs report <id-de-ejecución> [<id-de-ejecución-B>] --pdf ARCHIVO [--author NOMBRE] [--course NOMBRE] [--data-dir CARPETA]

runs export escribe el mismo JSON o CSV sea cual sea el idioma (con punto decimal). Con --reference escribe los números
principales de la ejecución como resultado de referencia: ponlo en references/ de la carpeta de datos y la aplicación
lo muestra junto a otras ejecuciones del laboratorio, como de otra máquina.
runs import trae a la carpeta de datos ejecuciones de otras máquinas desde carpetas de registros (una carpeta de
datos, la carpeta compartida de un batch), registros .json y archivos .tar.gz, .tgz, .tar o .zip. Cada registro se
comprueba con el esquema (uno incorrecto se deja fuera y se nombra); una ejecución que ya está aquí se deja como está,
una distinta cuyo id ya existe aquí recibe uno nuevo, y no se sustituye nada de lo guardado. Los archivos comprimidos
se leen con límites de entradas y bytes; los enlaces, los dispositivos y los nombres que salen de la carpeta se dejan
fuera y se nombran. Sale con 0 si se importó todo o ya estaba, con 1 si algo quedó fuera o se rechazó un origen.
runs report escribe el informe en PDF de una ejecución terminada, o la comparación de dos (primero la A).
{reportOptions}`,
    },
    serve: {
      summary: 'sirve la aplicación a un navegador (muestra un enlace con un token de acceso)',
      usage: `Uso: gpu-lab serve [--port N] [--host H] [--data-dir CARPETA] [--python RUTA] [--open] [--verbose]
                   [--classroom NOMBRE [--max-points N] [--max-bytes N] [--max-seconds N]] [--tls-cert FICHERO --tls-key FICHERO]

Sirve la aplicación GPU Lab a un navegador: abre el enlace que muestra (lleva el token de acceso).
  --port      el puerto (por defecto {port}; con 0 se elige uno libre)
  --host      la dirección en la que escucha (por defecto 127.0.0.1, solo esta máquina). Con cualquier otra, otras
              máquinas pueden llegar al servidor; en un servidor de GPU compartido, mejor un túnel SSH:
              ssh -L {port}:127.0.0.1:{port} servidor
  --data-dir  dónde se guardan las ejecuciones (por defecto $XDG_DATA_HOME/gpu-lab o ~/.local/share/gpu-lab)
  --python    el intérprete de Python de las series de referencia (por defecto: $GPU_LAB_PYTHON, si no python3
              del PATH); una página no puede elegirlo
  --open      abre además el enlace en el navegador predeterminado
  --verbose   todas las líneas del registro del proceso de cómputo (por defecto, solo caídas, procesos terminados y avisos)
  --classroom una clase con ese nombre: muestra el enlace del profesor y uno para los alumnos, que entran con un
              nombre cada uno; sus ejecuciones esperan en una cola y cada uno ve solo las suyas (la clase se guarda
              en la carpeta de datos: una clase por carpeta)
  --max-points, --max-bytes, --max-seconds
              los límites de la ejecución de un alumno: los puntos que planifica un laboratorio, la memoria de su
              punto más grande, el tiempo que puede durar (por defecto 400 puntos, 4 GiB, 600 s; se guardan para el
              siguiente arranque)
  --tls-cert, --tls-key
              sirve HTTPS con este certificado y esta clave (ficheros PEM); hace falta para que los tokens no viajen
              en claro fuera de esta máquina`,
    },
  },
  usage: {
    lang: '--lang: se esperaba en o es, pero se recibió «{value}»',
    unknownOption: 'la opción --{name} no existe',
    needsValue: 'a --{name} le falta el valor',
    optionAsValue: 'a --{name} le falta el valor, y «{value}» es una opción; un archivo que se llame así se escribe ./{value}',
    givenTwice: '--{name} aparece {count} veces',
    unexpected: 'argumento inesperado: «{value}»',
    device: '--device: se esperaba «cpu», «cuda:N» o «webgpu:N», pero se recibió «{value}»',
    cpuOrCuda: '--device: se esperaba «cpu» o «cuda:N», pero se recibió «{value}»',
    benchWebgpu: '--device: se esperaba «cpu» o «cuda:N», pero se recibió «{value}»: el banco de pruebas no tiene cargas para WebGPU; un adaptador WebGPU ejecuta la función vectorial y el punto de equilibrio elemento a elemento (gpu-lab run vector-function --device {value})',
    noSuchDevice: '--device {value}: esta máquina no tiene ese dispositivo; sus dispositivos son {devices}',
    threads: '--threads: se esperaba un entero entre 1 y 256, pero se recibió «{value}»',
    scale: '--scale: se esperaba un número mayor que 0 y como mucho 1, pero se recibió «{value}»',
    whichLab: '¿qué laboratorio? Uno de estos: {labs}',
    unknownLab: 'no existe el laboratorio «{lab}»; los laboratorios son {labs}',
    paramSyntax: '--param espera nombre=valor, pero se recibió «{value}»',
    unknownParam: 'el laboratorio «{lab}» no tiene el parámetro «{name}»; sus parámetros son {names}',
    pathEmpty: '{name} necesita una ruta; una vacía no nombra ningún archivo',
    dataDirEmpty: '--data-dir necesita una carpeta; una ruta vacía no lo es',
    dataDirMissing: '--data-dir {dir}: no existe esa carpeta (nunca se guardó nada en ella; revisa la ruta)',
    paramTwice: '--param {name}=… aparece dos veces; escríbelo una sola vez',
    paramNotDecimal: {
      hex: '--param {name}={value}: escribe el número con cifras decimales (aquí no se lee el hexadecimal)',
      octal: '--param {name}={value}: escribe el número con cifras decimales (aquí no se lee el octal)',
      binary: '--param {name}={value}: escribe el número con cifras decimales (aquí no se lee el binario)',
      underscore: '--param {name}={value}: escribe el número con cifras decimales, sin guiones bajos',
      notInteger: '--param {name}={value}: {name} admite un número entero en cifras decimales, sin decimales ni exponente',
      spaces: '--param {name}={value}: escribe el número sin espacios alrededor',
    },
    optionNotDecimal: {
      hex: '--{name} «{value}»: escribe el número con cifras decimales (aquí no se lee el hexadecimal)',
      octal: '--{name} «{value}»: escribe el número con cifras decimales (aquí no se lee el octal)',
      binary: '--{name} «{value}»: escribe el número con cifras decimales (aquí no se lee el binario)',
      underscore: '--{name} «{value}»: escribe el número con cifras decimales, sin guiones bajos',
      notInteger: '--{name} «{value}»: --{name} admite un número entero en cifras decimales, sin decimales ni exponente',
      spaces: '--{name} «{value}»: escribe el número sin espacios alrededor',
    },
    format: '--format tiene que ser uno de estos: {formats}; no «{value}»',
    port: '--port tiene que ser un entero entre 0 y 65535, no «{value}»',
    classCap: '--{name} tiene que ser un entero entre {min} y {max}, no «{value}»',
    classOnly: '--{name} fija un límite de una clase: va con --classroom NOMBRE',
    tlsPair: '--tls-cert y --tls-key van juntos: indica los dos o ninguno',
    runsAction: 'runs necesita una acción: list, show, export, import, delete o report',
    runsActionNot: 'runs necesita una acción: list, show, export, import, delete o report (no «{action}»)',
    importPath: 'runs import necesita una carpeta, un registro .json o un archivo .tar.gz, .tgz, .tar o .zip',
    importMissing: 'runs import {path}: no existe ese archivo ni esa carpeta',
    importKind: 'runs import {path}: se esperaba una carpeta, un registro .json o un archivo .tar.gz, .tgz, .tar o .zip (un archivo normal)',
    referenceJson: '--reference escribe JSON: no va con --format {format}',
    devicesWith: '--devices no va con {option}',
    labWithDevices: '--lab va con --devices',
    runId: 'runs {action} necesita el id de una ejecución (consúltalo con `gpu-lab runs list`)',
    pdfOnlyReport: '--pdf va con `gpu-lab runs report` (o con `gpu-lab run … --pdf ARCHIVO`)',
    pdfNeeded: '{what} necesita --pdf ARCHIVO',
    authorWithPdf: '--author y --course van con --pdf ARCHIVO',
    allLabs: 'report necesita --all-labs, --devices o --kernel-run ID (para una sola ejecución: gpu-lab runs report <id-de-ejecución> --pdf ARCHIVO)',
    reportArgument: 'argumento inesperado: «{value}» (para una sola ejecución: gpu-lab runs report <id-de-ejecución> --pdf ARCHIVO)',
    whichExercise: '¿qué ejercicio? Uno de estos: {exercises}',
    unknownExercise: 'no existe el ejercicio «{exercise}»; los ejercicios son {exercises}',
    kernelAction: 'kernel necesita una acción: list, show, run o runs',
    kernelActionNot: 'kernel necesita una acción: list, show, run o runs (no «{action}»)',
    kernelFile: 'kernel run necesita el archivo de tu kernel: gpu-lab kernel run {exercise} ARCHIVO.cu (o un kernel del ejercicio: --kernel ID)',
    kernelOrFile: '--kernel {kernel} ejecuta ese kernel del ejercicio: no va con un archivo ({path})',
    noFile: '{path}: el archivo no existe',
    fileUnreadable: 'no se puede leer {path}: {reason}',
    fileEmpty: '{path} está vacío: se esperaba el código de un kernel de CUDA',
    fileTooLong: '{path} tiene {count} caracteres; el código de un kernel puede tener como mucho {max}',
    fileTooLarge: '{path} ocupa {bytes} bytes; el código de un kernel puede ocupar como mucho {max} (no se ha leído nada)',
    fileNotRegular: {
      symlink: '{path} es un enlace simbólico: se esperaba el archivo .cu de tu kernel',
      folder: '{path} es una carpeta: se esperaba el archivo .cu de tu kernel',
      fifo: '{path} es una FIFO (una tubería con nombre), no un archivo: se esperaba el archivo .cu de tu kernel',
      'char-device': '{path} es un dispositivo de caracteres, no un archivo: se esperaba el archivo .cu de tu kernel',
      'block-device': '{path} es un dispositivo de bloques, no un archivo: se esperaba el archivo .cu de tu kernel',
      socket: '{path} es un socket, no un archivo: se esperaba el archivo .cu de tu kernel',
      other: '{path} no es un archivo regular: se esperaba el archivo .cu de tu kernel',
    },
    dim3: '--{name}: se esperaban de uno a tres enteros positivos x[,y[,z]], como 256 o 16,16, pero se recibió «{value}»',
    size: '--size: se esperaba un entero entre {min} y {max} ({name} de {exercise}), pero se recibió «{value}»',
    peers: '--peers: se esperaba all, none o una lista separada por comas de {libraries}, pero se recibió «{value}»',
    python: '--python: se esperaba un intérprete de Python (un archivo, o un nombre que esté en el PATH), pero se recibió «{value}», que no es un archivo',
    cudaDevice: '--device: se esperaba «cuda:N» (los kernels se ejecutan en una GPU), pero se recibió «{value}»',
    unknownKernel: 'el ejercicio {exercise} no tiene el kernel «{kernel}»; sus kernels son {kernels}',
    kernelAlone: '--kernel muestra solo el código de un kernel: no va con --hints',
    deviceWithAllLabs: '--device va con --all-labs (cada ejecución de kernel lleva su propio dispositivo)',
    kernelRunWithAllLabs: '--kernel-run no va con --all-labs: escribe aparte el informe de las ejecuciones de kernels (gpu-lab report --kernel-run ID --pdf ARCHIVO)',
    reportRun: 'un informe necesita el id de una ejecución',
  },
  error: {
    coded: 'error {code}: {detail}',
    warning: 'aviso: {detail}',
  },
  report: {
    options: `  --pdf      escribe el informe en PDF en ARCHIVO (primero en un archivo temporal de la misma carpeta, que luego se renombra)
  --author   el autor o la autora que figura en la portada del informe (como mucho 200 caracteres, en una línea)
  --course   la asignatura que figura en la portada del informe (con los mismos límites)`,
    kernelRunOption: '  --kernel-run ID  una ejecución del banco de pruebas de kernels que se añade tras las ejecuciones (se puede repetir; consulta `gpu-lab kernel runs`)',
    wrote: 'informe escrito: {path} ({count} página, {kib} KiB) | informe escrito: {path} ({count} páginas, {kib} KiB)',
    noFinishedRun: 'No hay ninguna ejecución terminada en {dir}: ejecuta antes los laboratorios (npm run labs:all, o gpu-lab run <laboratorio>)',
    noFinishedRunOn: 'No hay ninguna ejecución terminada en {device} dentro de {dir}: ejecuta antes los laboratorios (npm run labs:all, o gpu-lab run <laboratorio>)',
  },
  runStatus: { queued: 'en cola', running: 'en curso', completed: 'completada', waived: 'omitida (nada medido)', cancelled: 'cancelada', failed: 'fallida' },
  run: {
    started: 'ejecución {run} en {device}, {count} punto | ejecución {run} en {device}, {count} puntos',
    progress: '  … {percent}: {current}',
    progressEta: '  … {percent}, quedan unos {seconds} s: {current}',
    findings: 'Hallazgos',
    cancelling: 'cancelando…',
    stoppedNow: 'detenida de inmediato: no se espera a la muestra en curso, y la ejecución queda como se guardó por última vez',
    nothingMeasured: 'no se midió nada: se omitió el único punto, {count} (salida 3) | no se midió nada: se omitieron los {count} puntos (salida 3)',
    stored: '{status} — guardada como {run} en {dir}',
    neverStarted: 'no se ha guardado nada: la ejecución terminó antes de empezar a medir',
    notStored: 'WRITE_FAILED: la ejecución {run} no se pudo guardar en {dir} (el hallazgo de arriba dice por qué): lo que midió está impreso arriba, y en el archivo de --json si se pidió uno',
    cancelled: 'se canceló la ejecución',
    ended: 'la ejecución terminó en estado «{status}»',
    wrongResults: '{count} de {total} puntos dio un resultado incorrecto: {labels} | {count} de {total} puntos dieron resultados incorrectos: {labels}',
    pointsFailed: '{count} de {total} puntos falló: {labels} | {count} de {total} puntos fallaron: {labels}',
  },
  runs: {
    none: 'no hay ejecuciones en {dir}',
    columns: { run: 'ejecución', status: 'estado', device: 'dispositivo', points: 'puntos', error: 'código de error' },
    points: '{count} punto | {count} puntos',
    heading: 'ejecución {run}: {status} en {device}, {date}',
    parameters: 'parámetros: {params}',
    failed: 'falló: {code}: {detail}',
    wrote: 'archivo escrito: {path}',
    deleted: 'ejecución {run} borrada',
  },
  table: {
    point: 'punto',
    status: 'estado',
    median: 'mediana',
    range: 'mín. … máx.',
    iqr: 'RIC',
    interval: 'IC 95 %',
    samples: 'muestras',
    // Why sampling stopped where it did not converge: the point's time budget, or the engine's cap.
    samplesBudget: '{count}, plazo',
    samplesCap: '{count}, tope',
    // A point with fewer samples than a 95 % interval of its median needs.
    tooFew: '{count} muestra: muy pocas para juzgar | {count} muestras: muy pocas para juzgar',
    rate: 'rendimiento',
    ofPeak: '% del pico',
    // A share of the CPU's estimated peak (common/cpu-peaks.ts): marked as an estimate, shown as it is over 100 %.
    peakEstimate: '{share} (estim.)',
    peakMeasured: '{share} (med.)',
    relativeError: 'error rel.',
    ok: 'ok',
    okNoisy: 'ok, con ruido',
    pointStatus: { ok: 'OK', failed: 'FALLIDO', waived: 'OMITIDO', cancelled: 'CANCELADO' },
    waived: 'OMITIDO ({count} punto): {reason} | OMITIDOS ({count} puntos): {reason}',
    noReason: 'sin motivo indicado',
    notApplicable: 'n/d',
  },
  bench: {
    id: 'id',
    variant: 'variante',
    size: 'tamaño',
    median: 'mediana ms',
    min: 'mín. ms',
    max: 'máx. ms',
    samples: 'n',
    rate: 'rendimiento',
    verified: 'verificado',
    implementation: 'implementación',
    yes: 'sí',
    yesError: 'sí ({error})',
    failed: 'FALLIDO ({error})',
    noisy: '[con ruido]',
    progress: '  {id} {variant} {size}: {median} ms',
  },
  peersReport: {
    interpreter: 'Python {version}: {executable} (pedido como {interpreter})',
    none: 'No hay series de Python con {interpreter}: {reason}',
    found: '{name}, versión {version}',
    missing: '{name}: no disponible ({reason})',
    notInstalled: 'no está instalado para este intérprete: {error}',
    importFailed: 'la importación falló: {error}',
    blas: '  usa {blas} para sus productos de matrices',
    cuda: '  CUDA: disponible, {count} dispositivo(s): {devices}',
    cudaVersion: '  compilado para CUDA {version}',
    noCuda: '  CUDA: no disponible{reason}',
  },
  devices: {
    id: 'id',
    name: 'nombre',
    memory: 'memoria',
    fp32Peak: 'pico FP32',
    fp64Peak: 'pico FP64',
    memoryPeak: 'pico de memoria',
    cpuGemm: 'GEMM en la CPU: {blas}',
    cudaMissing: 'CUDA: no disponible — {reason}',
    unknownReason: 'motivo desconocido',
    cuda: 'CUDA: runtime {runtime}, controlador {driver} (admite CUDA {cuda})',
    libraryMissing: 'no encontrada: {reason}',
    librarySearched: 'buscada, después de la ruta del cargador, en: {dirs}',
    librarySearchedLoaderOnly: 'buscada solo en la ruta del cargador',
    libraryApt: 'Debian 13, Ubuntu 24.04 o posterior: {command}',
    libraryPip: 'o con pip, en un entorno de conda o en el Python activo al iniciar GPU Lab: {command}',
    libraryRestart: 'GPU Lab busca cuBLAS y NVRTC una sola vez, al arrancar: vuelve a ejecutarlo después de instalarlas.',
    unknown: 'desconocido',
    labels: { memory: 'memoria:', shared: 'compartida:', copies: 'copias:', peaks: 'picos:', now: 'ahora:' },
    capability: 'capacidad de cómputo {capability}, {sms} SM a {clock} MHz (máx. {maxClock} MHz), warp de {warp}',
    memoryLine: '{total} ({free} libres), bus de {bus} bits a {clock} MHz, L2 de {l2}, ECC {ecc}',
    on: 'activado',
    off: 'desactivado',
    yes: 'sí',
    no: 'no',
    sharedLine: '{perBlock} por bloque ({optIn} con opt-in), {perSm} por SM',
    copiesLine: '{engines} motores de copia, solapamiento de copia y cómputo: {overlap}, kernels concurrentes: {concurrent}; PCIe {link} (máx. {maxLink})',
    link: 'gen. {gen} x{width}',
    peakMemory: 'memoria',
    noTelemetry: 'sin telemetría ({reason})',
    nvmlMissing: 'falta NVML',
    webgpuMissing: 'WebGPU: no disponible — {reason}',
    webgpuHeading: '{id}  {name}  ({vendor}, {architecture}; {backend})',
    webgpuCompatibility: '{backend}, modo de compatibilidad',
    webgpuSoftware: 'adaptador por software: es la CPU, no una GPU',
    webgpuLabels: { description: 'descripción:', peaks: 'picos:', limits: 'límites:', features: 'funciones:', clock: 'reloj:' },
    webgpuLimits: 'búferes de hasta {buffer}, {binding} enlazados a la vez; grupos de trabajo de hasta {invocations} invocaciones, {groups} por dimensión',
    webgpuTimestamps: 'consultas de marca de tiempo: tiempos del dispositivo, con resolución completa',
    webgpuNoTimestamps: 'sin consultas de marca de tiempo: el reloj del host alrededor de onSubmittedWorkDone()',
    telemetry: 'SM a {sm}, memoria a {memory}, {temperature}, {power} de {powerLimit}, ocupación {busy}; límites de frecuencia: {reasons}',
    none: 'ninguno',
  },
  kernelStatus: { verified: 'verificada', 'compile-error': 'error de compilación', 'verification-failed': 'resultados incorrectos', failed: 'fallida' },
  kernel: {
    size: '{name} = {default} por defecto ({min} … {max}), medido en {metric}',
    signature: 'Firma:',
    sizeLine: 'Tamaño: {label}, {default} por defecto, de {min} a {max} (--size N)',
    work: 'Trabajo: {work}; se mide en {metric}',
    kernels: 'Kernels que lo acompañan (para sacar uno: gpu-lab kernel show {exercise} --kernel ID > ARCHIVO.cu):',
    builtins: 'Lo que mide el motor junto al tuyo:',
    hints: 'Pistas:',
    hintsCount: '{count} pista: gpu-lab kernel show {exercise} --hints | {count} pistas: gpu-lab kernel show {exercise} --hints',
    heading: '{file} en {device} ({name}), {sizeName} = {size}',
    headingFailed: '{file} en {device}, {sizeName} = {size}',
    compiled: 'compilado para {arch} por NVRTC {version} en {ms}',
    notCompiled: 'no compila para {arch} (NVRTC {version}): {count} error | no compila para {arch} (NVRTC {version}): {count} errores',
    notCompiledLog: 'no compila para {arch} (NVRTC {version}); el registro del compilador:',
    compileFailedLog: 'tu kernel no compila (el registro del compilador está arriba)',
    launch: 'lanzamiento: grid ({grid}), bloque ({block}); {registers} registros por hilo, {shared} de memoria compartida estática',
    occupancy: 'ocupación {occupancy}: {blocks} bloques por SM, {warps} de {maxWarps} warps',
    fewThreads: 'solo {threads} hilos por elemento de la salida: salvo que tu kernel recorra el resto con un bucle (salto de grid), parte de la salida no se escribe nunca',
    passedLine: 'verificado: {check}; {error}',
    failedLine: 'INCORRECTO: {verdict}; {check}; {error}',
    verdict: {
      passed: 'verificado',
      wrong: '{count} de los {checked} elementos comprobados difiere de la referencia | {count} de los {checked} elementos comprobados difieren de la referencia',
      incomplete: 'los {checked} elementos comprobados coinciden con la referencia, pero {count} de los {total} elementos de la salida no se escribió nunca | los {checked} elementos comprobados coinciden con la referencia, pero {count} de los {total} elementos de la salida no se escribieron nunca',
      unwritten: '{count} de los {total} elementos de la salida no se escribió nunca (sigue con el NaN con que se llenó) | {count} de los {total} elementos de la salida no se escribieron nunca (siguen con el NaN con que se llenaron)',
      unwrittenUncounted: 'no se contaron los elementos nunca escritos (registró esta ejecución una versión anterior)',
      older: 'una versión anterior registró esta ejecución y contó juntos, en toda la salida, los elementos incorrectos y los nunca escritos: {count} de {total}; se compararon {checked} con la referencia',
    },
    maxError: 'error rel. máx. {error}',
    noMaxError: 'sin error rel. máx. (un elemento comprobado es NaN o infinito, o difiere de un 0 esperado)',
    maxErrorLost: 'error rel. máx. no conservado (registró esta ejecución una versión anterior)',
    check: {
      everyElement: 'todos los elementos comprobados, {tolerance}',
      gemmEveryElement: 'todos los elementos comprobados con productos escalares en float64 (la DGEMM de cuBLAS con las entradas pasadas a float64, en la GPU); {tolerance}',
      total: 'el total, {tolerance}',
      sampledGemm: '{checked} elementos comprobados (la última fila, la última columna y {samples} al azar con productos escalares en float64, cualquier otro NaN o infinito como incorrecto) y, de todos, que se hayan escrito; {tolerance}',
      gemmCrossings: '{checked} elementos comprobados (la última fila, la última columna y los {samples} donde se cruzan filas y columnas al azar, con productos escalares en float64, cualquier otro NaN o infinito como incorrecto) y, de todos, que se hayan escrito; {tolerance}',
    },
    tolerance: {
      exact: 'exactamente',
      relative: 'con tolerancia relativa {tolerance} (al menos {tolerance} × RMS)',
      total: 'con tolerancia relativa {tolerance}',
      rms: 'con tolerancia {tolerance} × RMS',
    },
    at: '{index} (fila {row}, col. {col})',
    mismatch: '  índice {position}: da {got}, se esperaba {expected}',
    unwritten: '  índice {position}: sin escribir (sigue con el NaN con que se llenó), se esperaba {expected}',
    nan: '  índice {position}: da NaN (lo escribió tu kernel), se esperaba {expected}',
    more: '… y {count} más',
    moreUncounted: '… y más',
    timing: 'mediana de {repeats} lanzamientos tras {warmup} de calentamiento; {total} desde la compilación hasta la última medida',
    phases: 'de ellos, compilar y cargar {compile}, las entradas {inputs}, el lanzamiento comprobado y su comprobación {verify}, los lanzamientos cronometrados {time}, los demás kernels {compare}',
    listing: {
      heading: '{kind} de tu kernel, generado por {tool}; cada tramo de líneas bajo la línea de tu código de la que sale:',
      truncated: '… se omiten {count} líneas más',
      unavailable: 'sin {kind}: {reason}',
    },
    peak: 'pico de {device}: {peak}',
    fromL2: 'los datos ({data}) caben en la caché L2 de {l2} de {device}: tras el primer lanzamiento se leen de la L2, así que estas tasas no son ancho de banda de DRAM y no se muestran como fracción de su pico',
    implementation: 'implementación',
    ofPeak: '% del pico',
    yours: 'tu kernel ({file})',
    notTimed: 'sin cronometrar: {why}',
    notVerified: 'sin verificar',
    compileFailed: 'tu kernel no compila: {count} error (arriba) | tu kernel no compila: {count} errores (arriba)',
    firstAt: '{verdict}; el primero en el índice {index}',
    none: 'no hay ejecuciones de kernels en {dir}',
    exercise: 'ejercicio',
    date: 'fecha',
    device: 'dispositivo',
  },
  labs: {
    range: '{default} ({min} … {max})',
    choice: '{default} ({choices})',
    list: '{default} (cada uno de {min} a {max}, como mucho {count} valores)',
    choices: '{default} (entre {choices})',
    kernels: 'kernels: {kernels}',
    lookFor: 'Qué mirar',
  },
  serve: {
    notBuilt: 'la interfaz no está compilada (falta dist/web/index.html): ejecuta `npm run build`',
    portInUse: 'el puerto {port} de {host} está ocupado (¿otro gpu-lab serve?): indica --port N, o --port 0 para cualquier puerto libre',
    serving: `GPU Lab está sirviendo en {origin} (las ejecuciones se guardan en {dir}).
Abre este enlace en un navegador; lleva el token de acceso:

  {link}

Pulsa Ctrl+C para detenerlo.`,
    exposed: 'aviso: escuchando en {host}, no solo en esta máquina: cualquiera que llegue al puerto {port} y tenga el enlace puede ejecutar laboratorios y leer tus ejecuciones. En un servidor compartido, mejor un túnel SSH a 127.0.0.1.',
    noBrowser: 'no se pudo abrir un navegador ({detail}); abre tú el enlace',
    classroom: `GPU Lab está sirviendo la clase «{name}» en {origin} (las ejecuciones se guardan en {dir}).
El enlace del profesor (el tuyo: no lo compartas, permite leer todas las ejecuciones y quitar alumnos):

  {teacher}

El enlace de la clase, para los alumnos (cada uno da un nombre y recibe un token propio):

  {students}

La ejecución de un alumno espera en la cola, una ejecución a la vez en este servidor; puede planificar como mucho
{points} puntos, ocupar como mucho {bytes} y durar como mucho {seconds} s. Pulsa Ctrl+C para detenerlo.`,
    inClear: 'aviso: {origin} es HTTP sin cifrar en una dirección a la que llegan otras máquinas: los tokens (el del profesor, los de los alumnos) viajan en claro por la red, donde cualquiera en el camino puede leerlos y usarlos. Indica --tls-cert y --tls-key, o llega al servidor por un túnel SSH.',
    tlsUnreadable: 'no se puede leer {file} ({detail})',
    stopping: 'deteniendo',
  },
  batch,
  classroom,
};
