// What `gpu-lab batch` says in English (a part of the CLI's catalog, ./cli.ts, under `batch`). Slurm's own words
// (its states such as PENDING or FAILED, its reasons, what sbatch or squeue printed) are quoted as Slurm wrote them.
export const batch = {
  help: `Usage: gpu-lab batch --slurm --data-dir DIR [--labs LAB,…] [--param name=value …] [--device cpu{'|'}cuda:N{'|'}webgpu:N]
                      [--peers …] [--array N {'|'} --nodes NODE,…] [--partition P] [--account A] [--gres gpu:1]
                      [--time T] [--dry-run]
       gpu-lab batch status JOB [--data-dir DIR] [--json]

Runs labs on a cluster's nodes through Slurm: writes an sbatch script, submits it with sbatch and prints the job's id.
Each task of the job runs gpu-lab run for every lab asked, on its node, into the data folder; each run is stored
there as one file, with the node's name, the job's and task's ids and the GPU's UUID in its record.
  --slurm      submit to Slurm (the scheduler gpu-lab batch speaks)
  --data-dir   the folder the runs go to: every node must see it at the same path (a shared file system); it must
               exist. The tasks' output goes to DIR/batch/
  --labs       the labs each task runs, comma-separated (default: every lab)
  --param      a lab parameter, given to each listed lab that has it, e.g. --param elements=1000000
  --device     the device each run measures on (default: the first GPU the task is given, else the CPU); webgpu:N is
               the node's N-th WebGPU adapter as gpu-lab devices lists it there (CUDA_VISIBLE_DEVICES does not pick it)
  --peers      as gpu-lab run takes it (all, none, or a list such as numpy,torch)
  --array N    N tasks, wherever Slurm places them (default: 1)
  --nodes      one task on each of these nodes (Slurm's names for them), in one job
  --partition, --account, --gres, --time   passed to sbatch as they are (--gres gpu:1: one GPU per task)
  --dry-run    print the script and submit nothing
The command on each node is this gpu-lab, by the same path: install it where every node sees it.
batch status says, task by task, which are pending, running, done or failed, on which nodes, with Slurm's words,
from squeue, sacct where the cluster keeps accounting, Slurm's job-completion file, the tasks' logs and the runs in
the data folder. Exit codes: 0 every task done; 1 a task failed or cannot be told; 2 bad usage; 75 tasks still
pending or running (ask again later).`,
  // Refusals of what was typed: exit code 2.
  usage: {
    slurmNeeded: 'batch submits jobs to Slurm, the only scheduler it speaks: add --slurm',
    dataDirNeeded: 'batch needs --data-dir DIR: a folder every node sees at the same path',
    dataDirNotFolder: '--data-dir {dir}: not a folder',
    dataDirNotWritable: '--data-dir {dir}: cannot be written here ({reason}), so no task could store its runs there',
    dataDirChars: '--data-dir {dir}: a path holding \' " or \\ cannot be passed to Slurm safely (its #SBATCH lines and file names read them); choose a folder whose path has none',
    batchDirNotFolder: '{dir} is not a folder (a link, or a file): the tasks\' output would go elsewhere; move it away',
    control: '--{name}: {value} holds a control character (a newline, a tab…), which cannot be passed to Slurm safely',
    partition: '--partition: expected a partition, or partitions separated by commas (letters, digits, _ . + -), but received "{value}"',
    account: '--account: expected an account name (letters, digits, _ . + -) but received "{value}"',
    gres: '--gres: expected generic resources as Slurm writes them, such as gpu:1 or gpu:a100:2, but received "{value}"',
    time: '--time: expected a time limit as sbatch takes it (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED) but received "{value}"',
    array: '--array: expected a number of tasks from 1 to {max} but received "{value}"',
    node: '--nodes: "{value}" in "{list}" is not a node name (letters, digits, . _ -, starting with a letter or a digit)',
    nodeTwice: '--nodes: {value} is named twice',
    tooManyNodes: '--nodes names {count} nodes; at most {max}',
    arrayOrNodes: '--array and --nodes do not go together: N tasks wherever Slurm places them, or one on each node named',
    unknownLab: '--labs: unknown lab "{lab}"; the labs are {labs}',
    labTwice: '--labs: {lab} is named twice',
    paramNoLab: '--param {name}=…: none of the labs asked ({labs}) has a parameter "{name}"',
    noSelf: 'this gpu-lab cannot say how to start itself again on a node: run batch from the installed gpu-lab, or as node bin/gpu-lab.js',
    statusJob: 'batch status needs the job id gpu-lab batch printed (a number), not "{value}"',
    statusOptions: '--{name} goes with the submission, not with batch status',
    submitOptions: '--json goes with batch status',
    action: 'batch takes no argument "{value}": gpu-lab batch --slurm … submits, gpu-lab batch status JOB asks',
  },
  submitted: 'submitted job {job} to Slurm: {tasks}, labs {labs}; the runs will land in {dir}',
  tasksArray: '{count} task | {count} tasks',
  tasksNodes: 'one task on each of {nodes}',
  follow: 'ask where it stands: gpu-lab batch status {job} --data-dir {dir}',
  noSbatch: 'NOT_SUBMITTED: sbatch was not found ({words}): this machine is not a Slurm login node, or Slurm\'s commands are not on PATH. gpu-lab batch --dry-run prints the script without submitting it',
  refused: 'NOT_SUBMITTED: Slurm refused the job; sbatch said:',
  oddAnswer: 'sbatch answered "{answer}", which is not a job id: check squeue for a job named gpu-lab before submitting again',
  nothingWritten: 'nothing was written in {dir}',
  notDescribed: 'warning: job {job} is submitted, but what it runs could not be kept in {path} ({reason}): batch status will go by Slurm and the runs alone',
  status: {
    heading: 'job {job}: {tasks}, labs {labs}, runs in {dir}',
    headingUnknown: 'job {job} (not submitted from this data folder, or its description is gone): runs in {dir}',
    task: 'task {task}',
    node: 'node {node}',
    taskOn: 'task {task} on {nodes}',
    state: { pending: 'pending', running: 'running', done: 'done', failed: 'failed', unknown: 'unknown' },
    jobState: { pending: 'pending', running: 'running', done: 'done', failed: 'failed', unknown: 'unknown' },
    // Slurm's own words about a task, then where they come from.
    slurm: 'Slurm says {state}',
    reason: 'reason {reason}',
    exitCode: 'exit code {code}',
    source: { squeue: 'squeue', sacct: 'sacct', jobcomp: 'job-completion file', log: 'the job\'s log' },
    run: '{lab} {status} ({run})',
    runError: '{lab} {status} with {code} ({run})',
    runElsewhere: '{lab} {status} on {host}, which alone can tell whether it still runs ({run})',
    noRun: '{lab}: no run',
    why: {
      'not-shared': 'Slurm says it completed, but no run of {labs} from it is in {dir}: does every node see this folder at the same path?',
      forgotten: 'Slurm no longer knows this task (squeue keeps a job for minutes after it ends; sacct needs accounting) and the folder holds no run of it for {labs}',
    },
    log: 'the end of its log, {path}:',
    job: 'job {job}: {state} ({counts})',
    count: {
      pending: '{count} pending | {count} pending',
      running: '{count} running | {count} running',
      done: '{count} done | {count} done',
      failed: '{count} failed | {count} failed',
      unknown: '{count} unknown | {count} unknown',
    },
    noJob: 'job {job}: Slurm does not know it, and {dir} holds neither its description nor a run of it',
    // Sources that could not answer, and why, in their own words.
    missing: '{command} was not found on this machine ({words}): its part of the answer is missing',
    said: '{command} could not answer: {words}',
    noAccounting: 'sacct: {words}; ended tasks are read from the job-completion file and the runs instead',
    badDescription: 'skipping {path}: {reason}',
  },
} as const;
