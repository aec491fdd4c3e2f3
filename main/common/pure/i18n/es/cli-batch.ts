// Lo que dice `gpu-lab batch` en español (una parte del catálogo de la CLI, ./cli.ts, bajo `batch`): las mismas
// claves que ../en/cli-batch.ts. Las palabras de Slurm (sus estados como PENDING o FAILED, sus motivos, lo que
// escribieron sbatch o squeue) se citan tal como Slurm las escribió.
import type { TextOf } from '../translate.ts';
import type { batch as batchEn } from '../en/cli-batch.ts';

export const batch: TextOf<typeof batchEn> = {
  help: `Uso: gpu-lab batch --slurm --data-dir DIR [--labs LAB,…] [--param nombre=valor …] [--device cpu{'|'}cuda:N{'|'}webgpu:N]
                    [--peers …] [--array N {'|'} --nodes NODO,…] [--partition P] [--account A] [--gres gpu:1]
                    [--time T] [--dry-run]
     gpu-lab batch status TRABAJO [--data-dir DIR] [--json]

Ejecuta laboratorios en los nodos de un clúster a través de Slurm: escribe un script de sbatch, lo envía con sbatch
e imprime el id del trabajo. Cada tarea del trabajo ejecuta gpu-lab run para cada laboratorio pedido, en su nodo,
dentro de la carpeta de datos; cada ejecución se guarda allí como un archivo, y su registro lleva el nombre del
nodo, los ids del trabajo y de la tarea y el UUID de la GPU.
  --slurm      envía a Slurm (el planificador con el que habla gpu-lab batch)
  --data-dir   la carpeta donde van las ejecuciones: todos los nodos deben verla en la misma ruta (un sistema de
               archivos compartido), y debe existir. La salida de las tareas va a DIR/batch/
  --labs       los laboratorios que ejecuta cada tarea, separados por comas (por defecto, todos)
  --param      un parámetro de laboratorio, para cada laboratorio de la lista que lo tenga, p. ej. --param elements=1000000
  --device     el dispositivo en que mide cada ejecución (por defecto, la primera GPU que recibe la tarea; si no, la CPU);
               webgpu:N es el adaptador WebGPU N del nodo tal como lo lista allí gpu-lab devices (CUDA_VISIBLE_DEVICES no
               lo elige)
  --peers      como lo acepta gpu-lab run (all, none o una lista como numpy,torch)
  --array N    N tareas, donde Slurm las coloque (por defecto, 1)
  --nodes      una tarea en cada uno de estos nodos (con los nombres que les da Slurm), en un solo trabajo
  --partition, --account, --gres, --time   se pasan a sbatch tal cual (--gres gpu:1: una GPU por tarea)
  --dry-run    imprime el script y no envía nada
En cada nodo se ejecuta este mismo gpu-lab, por la misma ruta: instálalo donde lo vean todos los nodos.
batch status dice, tarea por tarea, cuáles están pendientes, en ejecución, terminadas o fallidas, en qué nodos y
con las palabras de Slurm, a partir de squeue, de sacct si el clúster guarda contabilidad, del archivo de trabajos
terminados de Slurm, de los registros de las tareas y de las ejecuciones de la carpeta de datos. Códigos de salida:
0 todas las tareas terminadas; 1 una tarea falló o no se puede saber; 2 uso incorrecto; 75 aún hay tareas
pendientes o en ejecución (vuelve a preguntar más tarde).`,
  usage: {
    slurmNeeded: 'batch envía trabajos a Slurm, el único planificador con el que habla: añade --slurm',
    dataDirNeeded: 'batch necesita --data-dir DIR: una carpeta que todos los nodos vean en la misma ruta',
    dataDirNotFolder: '--data-dir {dir}: no es una carpeta',
    dataDirNotWritable: '--data-dir {dir}: no se puede escribir desde aquí ({reason}), así que ninguna tarea podría guardar allí sus ejecuciones',
    dataDirChars: '--data-dir {dir}: una ruta con \' " o \\ no se puede pasar a Slurm con seguridad (la leen sus líneas #SBATCH y sus nombres de archivo); elige una carpeta cuya ruta no los tenga',
    batchDirNotFolder: '{dir} no es una carpeta (es un enlace o un archivo): la salida de las tareas iría a otro sitio; apártalo',
    control: '--{name}: {value} contiene un carácter de control (un salto de línea, un tabulador…), que no se puede pasar a Slurm con seguridad',
    partition: '--partition: se esperaba una partición, o varias separadas por comas (letras, dígitos, _ . + -), pero se recibió «{value}»',
    account: '--account: se esperaba un nombre de cuenta (letras, dígitos, _ . + -), pero se recibió «{value}»',
    gres: '--gres: se esperaban recursos genéricos como los escribe Slurm, como gpu:1 o gpu:a100:2, pero se recibió «{value}»',
    time: '--time: se esperaba un límite de tiempo como lo acepta sbatch (minutos, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS o UNLIMITED), pero se recibió «{value}»',
    array: '--array: se esperaba un número de tareas de 1 a {max}, pero se recibió «{value}»',
    node: '--nodes: «{value}» en «{list}» no es un nombre de nodo (letras, dígitos, . _ -, empezando por una letra o un dígito)',
    nodeTwice: '--nodes: {value} aparece dos veces',
    tooManyNodes: '--nodes nombra {count} nodos; como mucho {max}',
    arrayOrNodes: '--array y --nodes no van juntos: N tareas donde Slurm las coloque, o una en cada nodo nombrado',
    unknownLab: '--labs: no existe el laboratorio «{lab}»; los laboratorios son {labs}',
    labTwice: '--labs: {lab} aparece dos veces',
    paramNoLab: '--param {name}=…: ninguno de los laboratorios pedidos ({labs}) tiene un parámetro «{name}»',
    noSelf: 'este gpu-lab no sabe cómo volver a arrancarse en un nodo: ejecuta batch desde el gpu-lab instalado, o como node bin/gpu-lab.js',
    statusJob: 'batch status necesita el id de trabajo que imprimió gpu-lab batch (un número), no «{value}»',
    statusOptions: '--{name} va con el envío, no con batch status',
    submitOptions: '--json va con batch status',
    action: 'batch no acepta el argumento «{value}»: gpu-lab batch --slurm … envía, gpu-lab batch status TRABAJO pregunta',
  },
  submitted: 'trabajo {job} enviado a Slurm: {tasks}, laboratorios {labs}; las ejecuciones llegarán a {dir}',
  tasksArray: '{count} tarea | {count} tareas',
  tasksNodes: 'una tarea en cada uno de {nodes}',
  follow: 'para saber cómo va: gpu-lab batch status {job} --data-dir {dir}',
  noSbatch: 'NOT_SUBMITTED: no se encontró sbatch ({words}): esta máquina no es un nodo de acceso de Slurm, o los comandos de Slurm no están en el PATH. gpu-lab batch --dry-run imprime el script sin enviarlo',
  refused: 'NOT_SUBMITTED: Slurm rechazó el trabajo; sbatch dijo:',
  oddAnswer: 'sbatch respondió «{answer}», que no es un id de trabajo: busca en squeue un trabajo llamado gpu-lab antes de volver a enviarlo',
  nothingWritten: 'no se escribió nada en {dir}',
  notDescribed: 'aviso: el trabajo {job} está enviado, pero no se pudo guardar lo que ejecuta en {path} ({reason}): batch status se guiará solo por Slurm y las ejecuciones',
  status: {
    heading: 'trabajo {job}: {tasks}, laboratorios {labs}, ejecuciones en {dir}',
    headingUnknown: 'trabajo {job} (no se envió desde esta carpeta de datos, o su descripción ya no está): ejecuciones en {dir}',
    task: 'tarea {task}',
    node: 'nodo {node}',
    taskOn: 'tarea {task} en {nodes}',
    state: { pending: 'pendiente', running: 'en ejecución', done: 'terminada', failed: 'fallida', unknown: 'desconocida' },
    jobState: { pending: 'pendiente', running: 'en ejecución', done: 'terminado', failed: 'fallido', unknown: 'desconocido' },
    slurm: 'Slurm dice {state}',
    reason: 'motivo {reason}',
    exitCode: 'código de salida {code}',
    source: { squeue: 'squeue', sacct: 'sacct', jobcomp: 'archivo de trabajos terminados', log: 'el registro del trabajo' },
    run: '{lab} {status} ({run})',
    runError: '{lab} {status} con {code} ({run})',
    runElsewhere: '{lab} {status} en {host}, la única máquina que puede saber si sigue en marcha ({run})',
    noRun: '{lab}: sin ejecución',
    why: {
      'not-shared': 'Slurm dice que terminó, pero en {dir} no hay ninguna ejecución suya de {labs}: ¿ven todos los nodos esta carpeta en la misma ruta?',
      forgotten: 'Slurm ya no conoce esta tarea (squeue guarda un trabajo unos minutos después de terminar; sacct necesita contabilidad) y la carpeta no tiene ninguna ejecución suya de {labs}',
    },
    log: 'el final de su registro, {path}:',
    job: 'trabajo {job}: {state} ({counts})',
    count: {
      pending: '{count} pendiente | {count} pendientes',
      running: '{count} en ejecución | {count} en ejecución',
      done: '{count} terminada | {count} terminadas',
      failed: '{count} fallida | {count} fallidas',
      unknown: '{count} desconocida | {count} desconocidas',
    },
    noJob: 'trabajo {job}: Slurm no lo conoce, y {dir} no tiene ni su descripción ni ninguna ejecución suya',
    missing: 'no se encontró {command} en esta máquina ({words}): falta su parte de la respuesta',
    said: '{command} no pudo responder: {words}',
    noAccounting: 'sacct: {words}; las tareas terminadas se leen del archivo de trabajos terminados y de las ejecuciones',
    badDescription: 'se omite {path}: {reason}',
  },
};
