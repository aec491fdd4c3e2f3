// gpu-lab run on a terminal: the progress is one line on stderr that rewrites itself and is cleared before any row
// of the table (or anything else) is written, so no row lands after it on the same line; cut to the terminal's
// width. In a pipe each update is a line of its own. Judged on what a terminal would show: a log of every write to
// either stream, replayed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { runCli } from '../../../main/cli/main.ts';
import { progressLine } from '../../../main/cli/progress-line.ts';

const CLEAR = '\r\x1b[2K';
const env = { LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

interface Write {
  stream: 'out' | 'err';
  text: string;
}

// Replays the writes as a terminal shows them: true if something was written while a progress line stood unfinished.
function landsOnProgress(writes: Write[]): Write | null {
  let progressShown = false;
  for (const w of writes) {
    if (w.stream === 'err' && w.text.startsWith(CLEAR)) {
      progressShown = w.text.length > CLEAR.length;
      continue;
    }
    if (progressShown) return w;
  }
  return null;
}

describe('the progress line of gpu-lab run', () => {
  it('on a terminal rewrites itself and is cleared before every row, finding and line written after it', async () => {
    const writes: Write[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-progress-'));
    // Enough points of measurable length that progress is shown between rows.
    const code = await runCli(
      ['run', 'elementwise-breakeven', '--device', 'cpu', '--param', 'ops=add,exp', '--param', 'minExponent=5', '--param', 'maxExponent=7', '--param', 'pointsPerDecade=4', '--data-dir', dataDir],
      { out: (text) => writes.push({ stream: 'out', text }), err: (text) => writes.push({ stream: 'err', text }), terminal: { columns: () => 60 } },
      env,
    );
    expect(code).toBe(0);
    const shown = writes.filter((w) => w.stream === 'err' && w.text.startsWith(CLEAR) && w.text.length > CLEAR.length);
    expect(shown.length).toBeGreaterThan(1);
    for (const w of shown) {
      expect(w.text).not.toContain('\n');
      expect([...w.text.slice(CLEAR.length)].length).toBeLessThanOrEqual(59);
    }
    expect(landsOnProgress(writes)).toBeNull();
    // The table's rows are all there, one a line.
    expect(writes.filter((w) => w.stream === 'out' && /^(add|exp) (CPU|GPU)/.test(w.text)).length).toBeGreaterThan(10);
  }, 120_000);

  it('in a pipe writes each update as a line, never rewriting', () => {
    const writes: string[] = [];
    const line = progressLine({ out: () => undefined, err: (t) => writes.push(t) }, false);
    line.show('  … 10 %: add CPU, 100 k');
    line.io.out('a row\n');
    expect(writes).toEqual(['  … 10 %: add CPU, 100 k\n']);
  });

  it('cuts a line longer than the terminal with an ellipsis, and says nothing with --quiet', () => {
    const writes: string[] = [];
    const line = progressLine({ out: () => undefined, err: (t) => writes.push(t), terminal: { columns: () => 30 } }, false);
    line.show('x'.repeat(100));
    expect(writes).toEqual([`${CLEAR}${'x'.repeat(28)}…`]);
    line.io.err('done\n');
    expect(writes.slice(1)).toEqual([CLEAR, 'done\n']);
    const quiet: string[] = [];
    progressLine({ out: () => undefined, err: (t) => quiet.push(t), terminal: { columns: () => 30 } }, true).show('x');
    expect(quiet).toEqual([]);
  });
});
