// What a downloaded file is called, for the person who finds it in their downloads: "GPU Lab – Matrix product –
// 2026-11-25.pdf", the lab named as the app names it now (its short title, in the app's language).
import { useI18n } from 'vue-i18n';

import { comparisonFileName, labsFileName, runFileName, type NamedRun, type RunFileKind } from '../../main/common/pure/file-name.ts';
import type { RunSummary } from '../../main/common/run-record.ts';
import { shortLabTitle } from '../components/history/useRunText.ts';
import { useLabsStore } from '../stores/labs.ts';

type Run = Pick<RunSummary, 'lab' | 'labTitle' | 'createdAt'>;

export function useFileNames() {
  const { t } = useI18n();
  const labs = useLabsStore();
  const words = (key: string, named: Record<string, string>): string => t(key, named);
  const named = (run: Run): NamedRun => ({ lab: shortLabTitle(labs.titleOf(run)), createdAt: run.createdAt });

  return {
    run: (run: Run, kind: RunFileKind): string => runFileName(named(run), kind, words),
    comparison: (a: Run, b: Run): string => comparisonFileName(named(a), named(b), words),
    // The report of every lab on a device, dated the day it is saved.
    labs: (device: string): string => labsFileName(device, new Date(), words),
  };
}
