// The native facade imports main/common alone, from a file at any depth under native/: the lint rule is a folder
// rule, so that a file in native/cuda/ cannot reach the run store while one in native/ is refused.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('what native/ may import', () => {
  it.each([
    ['native/cuda/probe.ts', "import { RunStore } from '../../main/runs/run-store.ts';\nexport const s = RunStore;\n"],
    ['native/probe.ts', "import { RunStore } from '../main/runs/run-store.ts';\nexport const s = RunStore;\n"],
    ['native/cpu/deep/probe.ts', "import { findLab } from '../../../main/labs/index.ts';\nexport const f = findLab;\n"],
  ])('%s may not import main/ outside main/common', async (file, code) => {
    const said = await refusals(file, code);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('The native facade imports main/common only.');
  });

  it.each([
    ['native/cuda/probe.ts', "import { LIMITS } from '../../main/common/measurement.ts';\nexport const l = LIMITS;\n"],
    ['native/probe.ts', "import { LIMITS } from '../main/common/measurement.ts';\nexport const l = LIMITS;\n"],
  ])('%s may import main/common', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});
