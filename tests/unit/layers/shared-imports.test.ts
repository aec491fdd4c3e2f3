// What the renderer shares with main at run time is one folder, main/common/pure/, and that folder leans on nothing
// the renderer cannot bundle: the lint rules are folder rules, checked here on probe sources that are never written.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('what the renderer may import of main/common', () => {
  it.each([
    ['renderer/probe.ts', "import { MEASUREMENT } from '../main/common/measurement.ts';\nexport const m = MEASUREMENT;\n"],
    ['renderer/stores/probe.ts', "import { STATS } from '../../main/common/run-record.ts';\nexport const s = STATS;\n"],
  ])('%s may not import the rest of main/common at run time', async (file, code) => {
    const said = await refusals(file, code);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('The renderer may import main/common/pure/');
  });

  it.each([
    ['renderer/probe.ts', "import { formatBytes } from '../main/common/pure/format.ts';\nexport const f = formatBytes;\n"],
    ['renderer/components/probe.ts', "import { catalogTranslate } from '../../main/common/pure/i18n/translate.ts';\nexport const t = catalogTranslate;\n"],
    ['renderer/probe.ts', "import type { Measurement } from '../main/common/measurement.ts';\nexport type M = Measurement;\n"],
  ])('%s may import main/common/pure/, and the rest of main/common as types', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});

describe('what main/common/pure/ may import', () => {
  it.each([
    ['main/common/pure/probe.ts', 'main/common/pure/ imports only', "import { MEASUREMENT } from '../measurement.ts';\nexport const m = MEASUREMENT;\n"],
    ['main/common/pure/i18n/probe.ts', 'main/common/pure/ imports only', "import { STATS } from '../../run-record.ts';\nexport const s = STATS;\n"],
    ['main/common/pure/i18n/en/probe.ts', 'main/common/pure/ imports only', "import { MEASUREMENT } from '../../../measurement.ts';\nexport const m = MEASUREMENT;\n"],
    ['main/common/pure/probe.ts', 'no zod', "import { z } from 'zod';\nexport const s = z.string();\n"],
    ['main/common/pure/probe.ts', 'must not depend on Node', "import { join } from 'node:path';\nexport const j = join;\n"],
  ])('%s is refused (%s)', async (file, why, code) => {
    const said = await refusals(file, code);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(why);
  });

  it.each([
    ['main/common/pure/probe.ts', "import { formatBytes } from './format.ts';\nexport const f = formatBytes;\n"],
    ['main/common/pure/i18n/probe.ts', "import { numberLocale } from '../locale.ts';\nexport const n = numberLocale;\n"],
    ['main/common/pure/i18n/en/probe.ts', "import type { ErrorCode } from '../../../errors.ts';\nexport type E = ErrorCode;\n"],
  ])('%s may import itself, and the rest of main/common as types', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});

// The chart configurations main draws the PDF with are in main/common/pure/charts/, so main reads nothing of the
// renderer, from any folder at any depth.
describe('what main/ may import of renderer/', () => {
  async function pathRefusals(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
  }

  it.each([
    ['main/reports/probe.ts', "import { i18n } from '../../renderer/i18n/index.ts';\nexport const i = i18n;\n"],
    ['main/reports/deliverables/probe.ts', "import type { MessageSchema } from '../../../renderer/i18n/index.ts';\nexport type M = MessageSchema;\n"],
    ['main/common/probe.ts', "import { i18n } from '../../renderer/i18n/index.ts';\nexport const i = i18n;\n"],
    ['main/electron/probe.ts', "import { i18n } from '../../renderer/i18n/index.ts';\nexport const i = i18n;\n"],
  ])('%s may not import renderer/', async (file, code) => {
    const said = await pathRefusals(file, code);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('main/ imports nothing of renderer/');
  });

  it('main/reports/ draws with the charts of main/common/pure/charts/', async () => {
    const code = "import { runChart } from '../common/pure/charts/run-chart.ts';\nexport const c = runChart;\n";
    expect(await pathRefusals('main/reports/probe.ts', code)).toEqual([]);
  });
});
