// What `gpu-lab classroom` says in English (a part of the CLI's catalog, ./cli.ts, under `classroom`).
export const classroom = {
  help: `Usage: gpu-lab classroom export [--data-dir DIR] [--pdf FILE] [--csv FILE]

Writes the class of a data folder (the one gpu-lab serve --classroom NAME keeps there) as the teacher's view shows it:
  --pdf   the class's report: each lab's summary of the class (the students' headline numbers with their intervals,
          the class's range, who lies outside it, who has not run the lab), then each student's runs; in the
          language of --lang
  --csv   one row per run of a student: who, which lab, on which device, when, its status, its parameters and its
          headline numbers with their intervals
At least one of them; - writes to standard output (one of them only). The class's server may keep running: the
export reads the folder and changes nothing in it.`,
  usage: {
    action: 'classroom does "export", not "{value}"',
    actionNeeded: 'classroom needs what to do: gpu-lab classroom export --pdf FILE or --csv FILE',
    fileNeeded: 'classroom export needs --pdf FILE, --csv FILE or both',
    bothStdout: '--pdf and --csv cannot both be standard output (-)',
  },
  wrote: 'wrote {path} ({what})',
  csvWhat: '{count} run | {count} runs',
  pdfWhat: '{count} page | {count} pages',
};
