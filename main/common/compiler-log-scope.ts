// The second layer of the playground's door (SECURITY.md, "The kernel playground"): whatever the compiler read,
// its log reaches a person only for the student's own source. NVRTC writes an entry as a headline,
// "file(line): error: message", followed by the line it is about, echoed, and a caret; an entry about any other
// file could quote that file, so it is dropped whole, and one sentence says how many were.

// "saxpy.cu(3): error: …", "/etc/x(1): catastrophic error: …", "__nv_name_map(2): error: …".
const HEADLINE = /^(.+?)\((\d+)\): [a-z][a-z ]*?(?: #[\w-]+)?: /;
// "1 error detected in the compilation of "saxpy.cu"."
const SUMMARY = /^\d+ (?:catastrophic )?(?:errors?|warnings?) detected in the compilation of "[^"\n]*"\.$/;
// A line the addon adds itself starts with the file's name: "saxpy.cu: error: no kernel named …".

// NVRTC's own name lookup is a translation unit of its own (__nv_name_map); its echo is of NVRTC's code.
function isOwnFile(file: string, fileName: string): boolean {
  return file === fileName || file.startsWith('__nv');
}

// The end of the sentence that stands for what was dropped: a log confined before is recognised by it.
const LEFT_OUT_END = 'left out: the playground shows only what the compiler says about your source.)';

function leftOutSentence(count: number, fileName: string): string {
  return `(${count} compiler message${count === 1 ? '' : 's'} about a file other than ${fileName} ${count === 1 ? 'was' : 'were'} ${LEFT_OUT_END}`;
}

// The log with only the entries about `fileName` (and NVRTC's own name lookup), and the summary line.
export function confineCompilerLog(log: string, fileName: string): string {
  const kept: string[] = [];
  let keeping = false;
  let dropped = 0;
  // Whether the line before was one left out for having no headline: a block of them counts as one message.
  let orphan = false;
  let seenHeadline = false;
  for (const line of log.split('\n')) {
    const head = HEADLINE.exec(line);
    const wasOrphan = orphan;
    orphan = false;
    if (head) {
      seenHeadline = true;
      keeping = isOwnFile(head[1] ?? '', fileName);
      if (!keeping) dropped += 1;
    } else if (SUMMARY.test(line) || line.startsWith(`${fileName}: `)) {
      keeping = true;
    } else if (line.startsWith('(') && line.endsWith(LEFT_OUT_END)) {
      // A log confined before (a stored run read again): its sentence is counted anew.
      const m = /^\((\d+) /.exec(line);
      dropped += Number(m?.[1] ?? 0);
      continue;
    } else if (!keeping && line.trim() !== '') {
      // Inside an entry about another file (counted with its headline), or before any headline, where nothing
      // says whose text it is.
      if (!seenHeadline) {
        if (!wasOrphan) dropped += 1;
        orphan = true;
      }
      continue;
    }
    if (keeping || line.trim() === '') kept.push(line);
  }
  const text = kept.join('\n').replace(/\n{3,}/g, '\n\n');
  if (!dropped) return text;
  return `${text.replace(/\s+$/, '')}${text.trim() ? '\n' : ''}${leftOutSentence(dropped, fileName)}\n`;
}
