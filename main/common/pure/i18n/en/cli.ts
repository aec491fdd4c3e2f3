// Everything `gpu-lab` says to its user in English: help, table headings, status words, progress, its own errors.
// ./es.ts holds the same keys in Spanish (TextOf: a missing or extra key fails to compile; tests/unit/cli/words.test.ts
// checks that each message names the same values). "{name}" is a named value; a message with forms `one` and `other`
// is picked by its `count`. Errors raised by the engine keep their English message: the CLI only says who speaks.
// Not translated, in either language: option names, lab ids, error codes, units and the names of libraries.
import { batch } from './cli-batch.ts';
import { classroom } from './cli-classroom.ts';

export const cli = {
  main: {
    usage: 'Usage: gpu-lab <command> [options]',
    commands: 'Commands:',
    more: 'Run `gpu-lab <command> --help` for the options of one command.',
    lang: 'Every command takes --lang en{\'|\'}es: the language of its messages and of the PDF report (default: the system\'s, from LANGUAGE, LC_ALL, LC_MESSAGES or LANG).',
    exitCodes: 'Exit codes: 0 done and every result verified; 1 a failed run, a wrong result or another failure; 2 bad usage or input; 3 a run that measured nothing (every point waived); 75 the device is busy with another run (--no-wait), or a batch job still pending or running (batch status); 130 a run cancelled by Ctrl-C, SIGTERM or SIGHUP.',
    unknownCommand: 'unknown command "{name}"',
  },
  commands: {
    batch: { summary: 'run labs on a cluster\'s nodes through Slurm, into one shared folder; say where a job stands' },
    classroom: { summary: 'write a class\'s report (PDF) and its runs (CSV) from its data folder' },
    bench: {
      summary: 'measure the seed workloads on one device',
      usage: `Usage: gpu-lab bench [--device cpu{'|'}cuda:N] [--json] [--threads N] [--scale F] [--no-wait]

Measures the seed workloads on one device and prints median, min and max time with GFLOP/s or GB/s.
  --device cpu{'|'}cuda:N  the device to measure (default: cpu)
  --json               print a JSON array, one object per measurement, instead of the table
  --threads N          threads for the multithreaded CPU variants (default: every logical core)
  --scale F            multiply every size by F, 0 < F <= 1, for a quick look (default: 1)
  --no-wait            if another run is measuring on the device, exit 75 at once instead of waiting for it`,
    },
    devices: {
      summary: 'list the CPU and CUDA devices, their peaks and the libraries found',
      usage: `Usage: gpu-lab devices [--json]

Lists the CPU and the CUDA devices with their attributes and theoretical peaks; says why there is no CUDA device
when there is none.
  --json   print the device list, the CUDA inventory and the telemetry readings as JSON`,
    },
    peers: {
      summary: 'the Python the labs’ peer series would use: NumPy, PyTorch, CuPy, Numba, Transformers, PyCUDA and cuda.core, found or why not',
      usage: `Usage: gpu-lab peers [--python PATH] [--json]

Which Python interpreter the labs' peer series use (the course's own code, timed beside GPU Lab's), its version,
and for NumPy, PyTorch, CuPy, Numba, Transformers (the text-to-image lab's text encoder), PyCUDA and cuda.core (the
playground's launch from Python, Unit 10): found or why not, the version, the BLAS NumPy calls, and the CUDA devices
PyTorch, CuPy, Numba, PyCUDA and cuda.core see (torch.cuda.is_available(), device_count() and the devices' names).
  --python PATH  the interpreter to ask (default: $GPU_LAB_PYTHON, else python3 from PATH); gpu-lab run takes it too
  --json         print the report as JSON`,
    },
    kernel: {
      summary: 'write a CUDA kernel for an exercise: compile it, verify it, time it beside the built-in ones',
      usage: `Usage: gpu-lab kernel list [--json]
       gpu-lab kernel show <exercise> [--kernel starter{'|'}<reference-id>] [--hints]
       gpu-lab kernel run <exercise> FILE.cu{'|'}--kernel ID [--size N] [--block x[,y[,z]]] [--grid x[,y[,z]]]
                      [--device cuda:N] [--no-compare] [--no-wait] [--ptx] [--sass] [--json]
                      [--pdf FILE [--author NAME] [--course NAME]] [--data-dir DIR]
       gpu-lab kernel runs [--exercise <exercise>] [--json] [--data-dir DIR]

The kernel playground: six exercises with a fixed signature, a starter kernel and reference solutions.
kernel list  the exercises: id, title, signature, default size and metric (--json: the descriptors, in English)
kernel show  an exercise's statement, signature, work and kernels; --hints adds its hints; --kernel ID prints that
             kernel's source alone: gpu-lab kernel show saxpy --kernel starter > saxpy.cu gives you a file to start from
kernel run   compiles FILE with NVRTC for the GPU, launches it in the compute host, checks it against the CPU on
             fresh random inputs (the output filled with NaN first), then times it beside the exercise's reference
             kernels and the engine's built-in ones (cuBLAS where one applies). Once it reaches the GPU,
             the run is stored, whatever its outcome.
  --kernel   run that kernel of the exercise instead of a FILE, as kernel show --kernel ID prints it
  --size     the problem size, n elements or an N × N matrix (default: the exercise's)
  --block    threads per block, e.g. 256 or 16,16 (default: the file's launch header, else the exercise's)
  --grid     blocks per grid, e.g. 4096 or 256,256 (default: the file's launch header, else one thread per element
             of the output)
  --device   the GPU (default: the first CUDA device)
  --no-compare  time your kernel alone
  --no-wait  if another run is measuring on the GPU, exit 75 at once instead of waiting for it
  --ptx      also print the PTX NVRTC made of your kernel, each run of lines under the line of your source it
             came from (compiled with -lineinfo)
  --sass     also print the machine code (SASS) of your kernel, as nvdisasm prints it with the lines of your source
             (or cuobjdump without them), where the CUDA toolkit is installed
  --json     print the stored kernel run as JSON (in English, whatever the language)
{reportOptions}
  --verbose  every compute-host log line (by default only crashes, kills and warnings)
kernel runs  the stored kernel runs, newest first (a report of some: gpu-lab report --kernel-run ID --pdf FILE)
A file may state how it is launched in a header line, as every starter and reference does; --block and --grid win:
  // launch: block=32x32 grid=cover shared=0
  block=X[xY[xZ]]   threads per block
  grid=cover        one thread per element of the output; grid=tiles:WxH a block per W×H elements; grid=X[xY]
                    that grid
  shared=BYTES      dynamic shared memory per block, 0 to 49152
Compiler messages are printed as FILE:LINE:COLUMN: error: message, so an editor can jump to them.
Exit codes of kernel run: 0 verified; 1 a compile error, wrong results or a failed run (its error code is printed:
TIMEOUT, DEVICE_LOST…, or CUDA_UNAVAILABLE / LIBRARY_UNAVAILABLE where there is no GPU or no NVRTC); 2 bad usage;
75 the GPU is busy with another run (--no-wait).`,
    },
    labs: {
      summary: 'list the labs, their parameters and kernels',
      usage: `Usage: gpu-lab labs [LAB] [--json]

Lists every lab with its parameters (default, limits, unit); with a LAB, that lab alone with what it explains and what
to look for in its results. --json prints the descriptors (in English).`,
    },
    report: {
      summary: 'write one PDF report of every lab on one device, or of kernel runs',
      usage: `Usage: gpu-lab report --all-labs --pdf FILE [--device cpu{'|'}cuda:N{'|'}webgpu:N] [--author NAME] [--course NAME] [--data-dir DIR]
       gpu-lab report --devices [--lab LAB] --pdf FILE [--author NAME] [--course NAME] [--data-dir DIR]
       gpu-lab report --kernel-run ID [--kernel-run ID …] --pdf FILE [--author NAME] [--course NAME] [--data-dir DIR]

One PDF of every lab: the latest finished run of each on one device, with a table of contents and page numbers.
A lab without a finished run on that device is listed as not run. With --kernel-run instead of --all-labs: one PDF
of those kernel runs (see \`gpu-lab kernel runs\`). With --devices: one lab (--lab; default every lab with a run)
across every device that has a finished run of it, the newest run of each side by side (a cluster's nodes, runs
imported from colleagues): the GPU model, driver and node of each, the headline points' medians with their intervals,
and each device's time against the first's where they measured the same work.
  --device   the device whose runs to report (default: the device of the newest finished run)
{reportOptions}`,
    },
    run: {
      summary: 'run a lab on the CPU and a GPU, print and store the results',
      usage: `Usage: gpu-lab run <lab> [--device cpu{'|'}cuda:N{'|'}webgpu:N] [--param name=value …] [--json FILE] [--pdf FILE [--author NAME] [--course NAME]] [--data-dir DIR] [--quiet] [--no-wait]
                    [--peers all{'|'}none{'|'}numpy,torch,cupy,numba] [--python PATH]

Runs a lab and stores the run in the data folder (default $XDG_DATA_HOME/gpu-lab or ~/.local/share/gpu-lab).
  --device   the GPU to compare with the CPU: a CUDA device or a WebGPU adapter (see gpu-lab devices; default: the
             first CUDA device, else the CPU alone)
  --param    a lab parameter, e.g. --param n=2000 --param sizes=100,500,1000 (see \`gpu-lab labs\`)
  --json     also write the run record to FILE (in English, whatever the language)
{reportOptions}
  --quiet    no progress lines
  --verbose  every compute-host log line (by default only crashes, kills and warnings)
  --no-wait  if another run (of any user or program) is measuring on a device this lab needs, exit 75 at once;
             without it the run waits, and says for whom
  --peers    the course's own Python code timed beside GPU Lab's, as series of the lab where it has them: all (the
             default: each library found, the others waived with the reason), none, or a list such as numpy,torch
  --python   the interpreter for those series (default: $GPU_LAB_PYTHON, else python3; see gpu-lab peers)
Exit codes: 0 completed with no failed point; 1 failed or a point failed (the error code is printed:
VERIFICATION_FAILED for wrong results); 2 bad usage or parameters, a --device this machine does not have included;
3 nothing measured (every point waived); 75 a device busy with another run (--no-wait); 130 cancelled (Ctrl-C,
SIGTERM, SIGHUP), the points measured until then kept.`,
    },
    runs: {
      summary: 'list, show, export, delete or report stored runs',
      usage: `Usage: gpu-lab runs list [--json] [--data-dir DIR]
       gpu-lab runs show <run-id> [--json] [--data-dir DIR]
       gpu-lab runs export <run-id> [--format json{'|'}csv{'|'}csv-samples] [--reference] [--out FILE] [--data-dir DIR]
       gpu-lab runs import PATH … [--json] [--data-dir DIR]
       gpu-lab runs delete <run-id> [--data-dir DIR]
       gpu-lab runs report <run-id> [<run-id-B>] --pdf FILE [--author NAME] [--course NAME] [--data-dir DIR]

runs export writes the same JSON or CSV whatever the language (a point as a decimal separator). With --reference it
writes the run's headline numbers as a reference result: put it in the data folder's references/ and the app shows
it beside other runs of the lab, as another machine's.
runs import brings runs of other machines into the data folder from folders of records (a data folder, a shared batch
folder), .json records, and .tar.gz, .tgz, .tar or .zip archives. Each record is checked against the schema (a bad
one left out and named); a run already here is left alone, a different run whose id is taken here gets a new id, and
nothing stored is replaced. Archives are read with caps on entries and bytes; links, devices and names that lead out
of the folder are left out and named. Exit 0 when everything was imported or already here, 1 when something was left
out or a source refused.
runs report writes the PDF report of a run that has ended, or of two runs compared (A first).
{reportOptions}`,
    },
    serve: {
      summary: 'serve the app to a browser (prints a link with an access token)',
      usage: `Usage: gpu-lab serve [--port N] [--host H] [--data-dir DIR] [--python PATH] [--open] [--verbose]
                     [--classroom NAME [--max-points N] [--max-bytes N] [--max-seconds N]] [--tls-cert FILE --tls-key FILE]

Serves the GPU Lab app to a browser: open the link it prints (it carries the access token).
  --port      the port (default {port}; 0 picks a free one)
  --host      the address to listen on (default 127.0.0.1, this machine only). Anything else lets other machines
              reach the server; on a shared GPU server prefer an SSH tunnel: ssh -L {port}:127.0.0.1:{port} server
  --data-dir  where runs are stored (default $XDG_DATA_HOME/gpu-lab or ~/.local/share/gpu-lab)
  --python    the Python interpreter the labs’ peer series run on (default: $GPU_LAB_PYTHON, else python3
              from PATH); a page cannot choose it
  --open      also open the link in the default browser
  --verbose   every compute-host log line (by default only crashes, kills and warnings)
  --classroom a class of that name: prints the teacher's link and a link for the students, who join with a
              name each; their runs wait in one queue and each sees only their own (the class is kept in the
              data folder: one class per folder)
  --max-points, --max-bytes, --max-seconds
              the caps of a student's run: the points a lab run plans, the memory its largest point holds, the
              time it may take (default 400 points, 4 GiB, 600 s; kept for the next start)
  --tls-cert, --tls-key
              serve HTTPS with this certificate and key (PEM files); needed for tokens not to travel in clear
              beyond this machine`,
    },
  },
  // Refusals of what was typed: printed after "gpu-lab <command>: ", exit code 2.
  usage: {
    lang: '--lang: expected en or es but received "{value}"',
    unknownOption: 'unknown option --{name}',
    needsValue: '--{name} needs a value',
    optionAsValue: '--{name} needs a value, and "{value}" is an option; a file really named so is written ./{value}',
    givenTwice: '--{name} given {count} times',
    unexpected: 'unexpected argument "{value}"',
    device: '--device: expected "cpu", "cuda:N" or "webgpu:N" but received "{value}"',
    cpuOrCuda: '--device: expected "cpu" or "cuda:N" but received "{value}"',
    benchWebgpu: '--device: expected "cpu" or "cuda:N" but received "{value}": the bench has no WebGPU workloads; a WebGPU adapter runs the vector function and the elementwise break-even (gpu-lab run vector-function --device {value})',
    noSuchDevice: '--device {value}: this machine has no such device; its devices are {devices}',
    threads: '--threads: expected an integer from 1 to 256 but received "{value}"',
    scale: '--scale: expected a number greater than 0 and at most 1 but received "{value}"',
    whichLab: 'which lab? one of {labs}',
    unknownLab: 'unknown lab "{lab}"; the labs are {labs}',
    paramSyntax: '--param expects name=value, got "{value}"',
    unknownParam: 'lab "{lab}" has no parameter "{name}"; its parameters are {names}',
    pathEmpty: '{name} needs a path; an empty one names no file',
    dataDirEmpty: '--data-dir needs a folder; an empty path is not one',
    dataDirMissing: '--data-dir {dir}: no such folder (nothing was ever stored there; check the path)',
    paramTwice: '--param {name}=… is given twice; give it once',
    paramNotDecimal: {
      hex: '--param {name}={value}: write the number in decimal digits (hexadecimal is not read here)',
      octal: '--param {name}={value}: write the number in decimal digits (octal is not read here)',
      binary: '--param {name}={value}: write the number in decimal digits (binary is not read here)',
      underscore: '--param {name}={value}: write the number in decimal digits, without underscores',
      notInteger: '--param {name}={value}: {name} takes a whole number in decimal digits, without a fraction or an exponent',
      spaces: '--param {name}={value}: write the number without spaces around it',
    },
    optionNotDecimal: {
      hex: '--{name} "{value}": write the number in decimal digits (hexadecimal is not read here)',
      octal: '--{name} "{value}": write the number in decimal digits (octal is not read here)',
      binary: '--{name} "{value}": write the number in decimal digits (binary is not read here)',
      underscore: '--{name} "{value}": write the number in decimal digits, without underscores',
      notInteger: '--{name} "{value}": --{name} takes a whole number in decimal digits, without a fraction or an exponent',
      spaces: '--{name} "{value}": write the number without spaces around it',
    },
    format: '--format must be one of {formats}, not "{value}"',
    port: '--port must be an integer from 0 to 65535, not "{value}"',
    classCap: '--{name} must be an integer from {min} to {max}, not "{value}"',
    classOnly: '--{name} sets a cap of a class: it goes with --classroom NAME',
    tlsPair: '--tls-cert and --tls-key go together: give both, or neither',
    runsAction: 'runs needs an action: list, show, export, import, delete or report',
    runsActionNot: 'runs needs an action: list, show, export, import, delete or report (not "{action}")',
    importPath: 'runs import needs a folder, a .json record or a .tar.gz, .tgz, .tar or .zip archive',
    importMissing: 'runs import {path}: no such file or folder',
    importKind: 'runs import {path}: expected a folder, a .json record, or a .tar.gz, .tgz, .tar or .zip archive (a regular file)',
    referenceJson: '--reference writes JSON: it does not go with --format {format}',
    devicesWith: '--devices does not go with {option}',
    labWithDevices: '--lab goes with --devices',
    runId: 'runs {action} needs a run id (see `gpu-lab runs list`)',
    pdfOnlyReport: '--pdf goes with `gpu-lab runs report` (or `gpu-lab run … --pdf FILE`)',
    pdfNeeded: '{what} needs --pdf FILE',
    authorWithPdf: '--author and --course go with --pdf FILE',
    allLabs: 'report needs --all-labs, --devices or --kernel-run ID (for one run: gpu-lab runs report <run-id> --pdf FILE)',
    reportArgument: 'unexpected argument "{value}" (for one run: gpu-lab runs report <run-id> --pdf FILE)',
    whichExercise: 'which exercise? one of {exercises}',
    unknownExercise: 'unknown exercise "{exercise}"; the exercises are {exercises}',
    kernelAction: 'kernel needs an action: list, show, run or runs',
    kernelActionNot: 'kernel needs an action: list, show, run or runs (not "{action}")',
    kernelFile: 'kernel run needs the file of your kernel: gpu-lab kernel run {exercise} FILE.cu (or a kernel of the exercise: --kernel ID)',
    kernelOrFile: '--kernel {kernel} runs that kernel of the exercise: it does not go with a file ({path})',
    noFile: '{path}: no such file',
    fileUnreadable: 'cannot read {path}: {reason}',
    fileEmpty: '{path} is empty: expected the source of a CUDA kernel',
    fileTooLong: '{path} holds {count} characters; a kernel source may hold at most {max}',
    fileTooLarge: '{path} holds {bytes} bytes; a kernel source may hold at most {max} (nothing was read)',
    fileNotRegular: {
      symlink: '{path} is a symbolic link: expected the .cu file of your kernel',
      folder: '{path} is a folder: expected the .cu file of your kernel',
      fifo: '{path} is a FIFO (a named pipe), not a file: expected the .cu file of your kernel',
      'char-device': '{path} is a character device, not a file: expected the .cu file of your kernel',
      'block-device': '{path} is a block device, not a file: expected the .cu file of your kernel',
      socket: '{path} is a socket, not a file: expected the .cu file of your kernel',
      other: '{path} is not a regular file: expected the .cu file of your kernel',
    },
    dim3: '--{name}: expected one to three positive integers x[,y[,z]], such as 256 or 16,16, but received "{value}"',
    size: '--size: expected an integer from {min} to {max} ({name} of {exercise}) but received "{value}"',
    peers: '--peers: expected all, none or a comma-separated list of {libraries} but received "{value}"',
    python: '--python: expected a Python interpreter (a file, or a name found in PATH) but received "{value}", which is not a file',
    cudaDevice: '--device: expected "cuda:N" (kernels run on a GPU) but received "{value}"',
    unknownKernel: 'exercise {exercise} has no kernel "{kernel}"; its kernels are {kernels}',
    kernelAlone: '--kernel prints one kernel\'s source alone: it does not go with --hints',
    deviceWithAllLabs: '--device goes with --all-labs (a kernel run names its own device)',
    kernelRunWithAllLabs: '--kernel-run does not go with --all-labs: write the kernel runs\' report on its own (gpu-lab report --kernel-run ID --pdf FILE)',
    reportRun: 'a report needs a run id',
  },
  // An error with a code, from the engine or the CLI: "<code>: <what it says>".
  error: {
    coded: '{code}: {detail}',
    warning: 'warning: {detail}',
  },
  report: {
    options: `  --pdf      write the PDF report to FILE (a temporary file in the same folder, then renamed)
  --author   the author named on the report's title page (at most 200 characters, one line)
  --course   the course named on the report's title page (likewise)`,
    kernelRunOption: '  --kernel-run ID  a kernel playground run to add after the runs (repeatable; see `gpu-lab kernel runs`)',
    wrote: 'wrote {path} ({count} page, {kib} KiB) | wrote {path} ({count} pages, {kib} KiB)',
    noFinishedRun: 'No finished run in {dir}: run the labs first (npm run labs:all, or gpu-lab run <lab>)',
    noFinishedRunOn: 'No finished run on {device} in {dir}: run the labs first (npm run labs:all, or gpu-lab run <lab>)',
  },
  runStatus: { queued: 'queued', running: 'running', completed: 'completed', waived: 'waived (nothing measured)', cancelled: 'cancelled', failed: 'failed' },
  run: {
    started: 'run {run} on {device}, {count} point | run {run} on {device}, {count} points',
    progress: '  … {percent}: {current}',
    progressEta: '  … {percent}, about {seconds} s left: {current}',
    findings: 'Findings',
    cancelling: 'cancelling…',
    stoppedNow: 'stopped at once: the sample in progress is not waited for, and the run stays as last saved',
    nothingMeasured: 'nothing was measured: the {count} point was waived (exit 3) | nothing was measured: all {count} points were waived (exit 3)',
    stored: '{status} — stored as {run} in {dir}',
    neverStarted: 'nothing was stored: the run ended before it began to measure',
    notStored: 'WRITE_FAILED: run {run} could not be stored in {dir} (the finding above says why): what it measured is printed above, and in the --json file where one was asked for',
    cancelled: 'the run was cancelled',
    ended: 'the run ended {status}',
    wrongResults: '{count} of {total} points gave a wrong result: {labels} | {count} of {total} points gave wrong results: {labels}',
    pointsFailed: '{count} of {total} points failed: {labels} | {count} of {total} points failed: {labels}',
  },
  runs: {
    none: 'no runs in {dir}',
    columns: { run: 'run', status: 'status', device: 'device', points: 'points', error: 'error' },
    points: '{count} point | {count} points',
    heading: 'run {run}: {status} on {device}, {date}',
    parameters: 'parameters: {params}',
    failed: 'failed: {code}: {detail}',
    wrote: 'wrote {path}',
    deleted: 'deleted {run}',
  },
  table: {
    point: 'point',
    status: 'status',
    median: 'median',
    range: 'min … max',
    iqr: 'IQR',
    interval: '95 % CI',
    samples: 'samples',
    // Why sampling stopped where it did not converge: the point's time budget, or the engine's cap.
    samplesBudget: '{count}, budget',
    samplesCap: '{count}, cap',
    // A point with fewer samples than a 95 % interval of its median needs.
    tooFew: '{count} sample: too few to judge | {count} samples: too few to judge',
    rate: 'rate',
    ofPeak: '% of peak',
    // A share of the CPU's estimated peak (common/cpu-peaks.ts): marked as an estimate, shown as it is over 100 %.
    peakEstimate: '{share} (est.)',
    peakMeasured: '{share} (meas.)',
    relativeError: 'rel. error',
    ok: 'ok',
    okNoisy: 'ok noisy',
    pointStatus: { ok: 'OK', failed: 'FAILED', waived: 'WAIVED', cancelled: 'CANCELLED' },
    // Said once above the table for each reason points are waived; those rows then only say WAIVED.
    waived: 'WAIVED ({count} point): {reason} | WAIVED ({count} points): {reason}',
    noReason: 'no reason given',
    notApplicable: 'n/a',
  },
  bench: {
    id: 'id',
    variant: 'variant',
    size: 'size',
    median: 'median ms',
    min: 'min ms',
    max: 'max ms',
    samples: 'n',
    rate: 'rate',
    verified: 'verified',
    implementation: 'implementation',
    yes: 'yes',
    yesError: 'yes ({error})',
    failed: 'FAILED ({error})',
    noisy: '[noisy]',
    progress: '  {id} {variant} {size}: {median} ms',
  },
  peersReport: {
    interpreter: 'Python {version}: {executable} (asked as {interpreter})',
    none: 'No Python peers with {interpreter}: {reason}',
    found: '{name}, version {version}',
    missing: '{name}: not available ({reason})',
    notInstalled: 'not installed for this interpreter: {error}',
    importFailed: 'the import failed: {error}',
    blas: '  calls {blas} for its matrix products',
    cuda: '  CUDA: available, {count} device(s): {devices}',
    cudaVersion: '  built for CUDA {version}',
    noCuda: '  CUDA: not available{reason}',
  },
  devices: {
    id: 'id',
    name: 'name',
    memory: 'memory',
    fp32Peak: 'FP32 peak',
    fp64Peak: 'FP64 peak',
    memoryPeak: 'memory peak',
    cpuGemm: 'CPU GEMM: {blas}',
    cudaMissing: 'CUDA: not available — {reason}',
    unknownReason: 'unknown reason',
    cuda: 'CUDA: runtime {runtime}, driver {driver} (supports CUDA {cuda})',
    libraryMissing: 'not found: {reason}',
    // Under a missing library: where else it was looked for, and (where a CUDA device could use it) how to get it.
    librarySearched: 'searched after the loader’s path: {dirs}',
    librarySearchedLoaderOnly: 'searched in the loader’s path only',
    libraryApt: 'Debian 13, Ubuntu 24.04 or later: {command}',
    libraryPip: 'or with pip, into a conda environment or the Python active when GPU Lab starts: {command}',
    libraryRestart: 'GPU Lab looks for cuBLAS and NVRTC once, as it starts: run it again after installing them.',
    unknown: 'unknown',
    // The labels down the left of a CUDA device's details, each followed by its line.
    labels: { memory: 'memory:', shared: 'shared:', copies: 'copies:', peaks: 'peaks:', now: 'now:' },
    capability: 'compute capability {capability}, {sms} SMs at {clock} MHz (max {maxClock} MHz), warp {warp}',
    memoryLine: '{total} ({free} free), {bus}-bit bus at {clock} MHz, L2 {l2}, ECC {ecc}',
    on: 'on',
    off: 'off',
    yes: 'yes',
    no: 'no',
    sharedLine: '{perBlock} per block ({optIn} opt-in), {perSm} per SM',
    copiesLine: '{engines} copy engines, copy/compute overlap {overlap}, concurrent kernels {concurrent}; PCIe {link} (max {maxLink})',
    link: 'gen {gen} x{width}',
    // The name of the memory peak, beside FP32, FP64 and PCIe.
    peakMemory: 'memory',
    noTelemetry: 'no telemetry ({reason})',
    nvmlMissing: 'NVML missing',
    // A WebGPU adapter's lines, under the CUDA devices; or why there is none.
    webgpuMissing: 'WebGPU: not available — {reason}',
    webgpuHeading: '{id}  {name}  ({vendor}, {architecture}; {backend})',
    webgpuCompatibility: '{backend}, compatibility mode',
    webgpuSoftware: 'software adapter: this is the CPU, not a GPU',
    webgpuLabels: { description: 'description:', peaks: 'peaks:', limits: 'limits:', features: 'features:', clock: 'clock:' },
    webgpuLimits: 'buffers up to {buffer}, {binding} bound at once; workgroups of up to {invocations} invocations, {groups} per dimension',
    webgpuTimestamps: 'timestamp queries: device times, at full resolution',
    webgpuNoTimestamps: 'no timestamp queries: the host clock around onSubmittedWorkDone()',
    telemetry: 'SM {sm}, memory {memory}, {temperature}, {power} of {powerLimit}, busy {busy}; clock limits: {reasons}',
    none: 'none',
  },
  kernelStatus: { verified: 'verified', 'compile-error': 'compile error', 'verification-failed': 'wrong results', failed: 'failed' },
  kernel: {
    // kernel list and show
    size: '{name} = {default} by default ({min} … {max}), measured in {metric}',
    signature: 'Signature:',
    sizeLine: 'Size: {label}, {default} by default, from {min} to {max} (--size N)',
    work: 'Work: {work}; measured in {metric}',
    kernels: 'Kernels that come with it (print one: gpu-lab kernel show {exercise} --kernel ID > FILE.cu):',
    builtins: 'Measured by the engine beside yours:',
    hints: 'Hints:',
    hintsCount: '{count} hint: gpu-lab kernel show {exercise} --hints | {count} hints: gpu-lab kernel show {exercise} --hints',
    // kernel run, in the order it prints
    heading: '{file} on {device} ({name}), {sizeName} = {size}',
    headingFailed: '{file} on {device}, {sizeName} = {size}',
    compiled: 'compiled for {arch} by NVRTC {version} in {ms}',
    notCompiled: 'did not compile for {arch} (NVRTC {version}): {count} error | did not compile for {arch} (NVRTC {version}): {count} errors',
    notCompiledLog: 'did not compile for {arch} (NVRTC {version}); the compiler\'s log:',
    compileFailedLog: 'your kernel did not compile (the compiler\'s log is above)',
    launch: 'launch: grid ({grid}), block ({block}); {registers} registers per thread, {shared} of static shared memory',
    occupancy: 'occupancy {occupancy}: {blocks} blocks per SM, {warps} of {maxWarps} warps',
    fewThreads: 'only {threads} threads per element of the output: unless your kernel loops (grid-stride), part of the output is never written',
    // One line: what the check found ({verdict}: one or more of `verdict`, "; " between), how ({check}), and the
    // largest error ({error}: maxError, noMaxError or maxErrorLost).
    passedLine: 'verified: {check}; {error}',
    failedLine: 'WRONG: {verdict}; {check}; {error}',
    // Wrong elements are counted among those checked, elements never written over the whole output
    // (main/common/pure/verification-verdict.ts).
    verdict: {
      passed: 'verified',
      wrong: '{count} of the {checked} elements checked differs from the reference | {count} of the {checked} elements checked differ from the reference',
      incomplete: 'the {checked} elements checked match the reference, but {count} of the {total} elements of the output was never written | the {checked} elements checked match the reference, but {count} of the {total} elements of the output were never written',
      unwritten: '{count} of the {total} elements of the output was never written (still the NaN it was filled with) | {count} of the {total} elements of the output were never written (still the NaN they were filled with)',
      unwrittenUncounted: 'the elements never written were not counted (an older version recorded this run)',
      older: 'an older version recorded this run and counted the wrong elements and those never written together, over the whole output: {count} of {total}; {checked} were compared with the reference',
    },
    maxError: 'max. rel. error {error}',
    noMaxError: 'no max. rel. error (an element checked is NaN or infinite, or differs from an expected 0)',
    maxErrorLost: 'max. rel. error not kept (an older version recorded this run)',
    // How the output was checked ({check} above), from the verification's data: {tolerance} is one of `tolerance`.
    check: {
      everyElement: 'every element checked, {tolerance}',
      gemmEveryElement: 'every element checked against float64 dot products (cuBLAS’s DGEMM of the inputs widened to float64, on the GPU); {tolerance}',
      total: 'the total, {tolerance}',
      sampledGemm: '{checked} elements checked (the last row, the last column and {samples} at random against float64 dot products, any other NaN or infinity as wrong), every element for having been written; {tolerance}',
      gemmCrossings: '{checked} elements checked (the last row, the last column and the {samples} where random rows cross random columns, against float64 dot products, any other NaN or infinity as wrong), every element for having been written; {tolerance}',
    },
    tolerance: {
      exact: 'exactly',
      // An element's own tolerance, floored for elements near zero.
      relative: 'to {tolerance} relative (at least {tolerance} × RMS)',
      // The total's.
      total: 'to {tolerance} relative',
      // SGEMM's: one for every element checked, from the RMS of the reference.
      rms: 'to {tolerance} × RMS',
    },
    at: '{index} (row {row}, col {col})',
    mismatch: '  index {position}: got {got}, expected {expected}',
    unwritten: '  index {position}: not written (still the NaN it was filled with), expected {expected}',
    nan: '  index {position}: got NaN (written by your kernel), expected {expected}',
    more: '… and {count} more',
    moreUncounted: '… and more',
    timing: 'median of {repeats} launches after {warmup} warm-up; {total} from compiling to the last timing',
    phases: 'of which compiling and loading {compile}, the inputs {inputs}, the checked launch and its check {verify}, the timed launches {time}, the other kernels {compare}',
    listing: {
      heading: '{kind} of your kernel, by {tool}; each run of lines under the line of your source it came from:',
      truncated: '… {count} more lines left out',
      unavailable: 'no {kind}: {reason}',
    },
    peak: 'peak of {device}: {peak}',
    fromL2: 'the data ({data}) fits in the {l2} L2 cache of {device}: after the first launch it is read from L2, so these rates are not DRAM bandwidth and are not shown as a share of its peak',
    implementation: 'implementation',
    ofPeak: '% of peak',
    yours: 'your kernel ({file})',
    notTimed: 'not timed: {why}',
    notVerified: 'not verified',
    // Said after "gpu-lab kernel: " on the error stream.
    compileFailed: 'your kernel did not compile: {count} error (above) | your kernel did not compile: {count} errors (above)',
    firstAt: '{verdict}; the first at index {index}',
    // kernel runs
    none: 'no kernel runs in {dir}',
    exercise: 'exercise',
    date: 'date',
    device: 'device',
  },
  labs: {
    range: '{default} ({min} … {max})',
    choice: '{default} ({choices})',
    list: '{default} (each {min} … {max}, up to {count} values)',
    choices: '{default} (from {choices})',
    kernels: 'kernels: {kernels}',
    lookFor: 'What to look for',
  },
  serve: {
    notBuilt: 'the renderer is not built (dist/web/index.html is missing): run `npm run build`',
    portInUse: 'port {port} on {host} is in use (another gpu-lab serve?): pass --port N, or --port 0 for any free port',
    serving: `GPU Lab is serving on {origin} (runs stored in {dir}).
Open this link in a browser; it carries the access token:

  {link}

Press Ctrl+C to stop.`,
    exposed: 'warning: listening on {host}, not only this machine: anyone who can reach port {port} and has the link can run labs and read your runs. On a shared server prefer an SSH tunnel to 127.0.0.1.',
    noBrowser: 'could not open a browser ({detail}); open the link yourself',
    classroom: `GPU Lab is serving the class "{name}" on {origin} (runs stored in {dir}).
The teacher's link (yours: keep it to yourself, it can read every run and remove students):

  {teacher}

The class link, for the students (each gives a name and gets a token of their own):

  {students}

A student's run waits in the queue, one run at a time on this server; a student's run may plan at most
{points} points, hold at most {bytes} and take at most {seconds} s. Press Ctrl+C to stop.`,
    inClear: 'warning: {origin} is plain HTTP on an address other machines reach: the tokens (the teacher’s, the students’) travel in clear over the network, where anyone on the path can read them and use them. Give --tls-cert and --tls-key, or reach the server through an SSH tunnel.',
    tlsUnreadable: 'cannot read {file} ({detail})',
    stopping: 'stopping',
  },
  batch,
  classroom,
} as const;

export type CliCatalog = typeof cli;
