// What the teacher reads of the class and takes away: the overview of the teacher's view, the CSV of every run and
// the class's PDF, all made from the same runs read the same way (class-overview.ts), whether the class's server
// asks (the teacher's methods) or `gpu-lab classroom export` reads a data folder.
import type { LabHost } from '../app/lab-host.ts';
import { MAX_REPORT_RUNS, reportOrder } from '../common/pure/class-text.ts';
import type { ClassOverview, ClassReportRequest } from '../common/contract/classroom.ts';
import type { ExportedRun } from '../common/contract/runs.ts';
import type { RunRecord, RunSummary } from '../common/run-record.ts';
import { classCsv } from './class-csv.ts';
import { ClassRunReader, classOverview } from './class-overview.ts';
import type { ClassSources } from './class-overview.ts';
import type { ClassStore } from './class-store.ts';

export interface StoredRuns {
  listRuns(): Promise<RunSummary[]>;
  getRun(id: string): Promise<RunRecord>;
}

// The class of `store` over the runs of `runs`, as it is at the moment of asking.
export function classSources(store: ClassStore, runs: StoredRuns): ClassSources {
  return {
    name: store.name,
    caps: store.caps,
    roster: store.roster(),
    everyone: store.everyone(),
    ownerOf: (id) => store.ownerOf('runs', id),
    listRuns: () => runs.listRuns(),
    getRun: (id) => runs.getRun(id),
  };
}

export interface ClassReportOptions extends ClassReportRequest {
  writerVersion: string;
  date?: Date;
  // The runs given a section of their own, at most (MAX_REPORT_RUNS without).
  maxRuns?: number;
}

// What writes the class's PDF: the report writer (main/reports/report-writer.ts, writeClassReport), which the app's
// lab host hands to a class's server and the command line imports itself.
export type ClassReportWriter = LabHost['writeClassReport'];
type ReportPdf = Awaited<ReturnType<ClassReportWriter>>;

export class ClassExports {
  private readonly reader = new ClassRunReader();
  private readonly sources: () => ClassSources;
  private readonly writeReport: ClassReportWriter;

  constructor(sources: () => ClassSources, writeReport: ClassReportWriter) {
    this.sources = sources;
    this.writeReport = writeReport;
  }

  async overview(): Promise<ClassOverview> {
    const sources = this.sources();
    return classOverview(sources, await this.reader.runs(sources));
  }

  async csv(date?: Date): Promise<ExportedRun> {
    const sources = this.sources();
    const runs = await this.reader.runs(sources);
    return classCsv(runs, classOverview(sources, runs), date);
  }

  async pdf(options: ClassReportOptions): Promise<ReportPdf> {
    const sources = this.sources();
    const overview = classOverview(sources, await this.reader.runs(sources));
    // Only the runs the report gives a section: the summary needs no record.
    const ids = reportOrder(overview)
      .slice(0, options.maxRuns ?? MAX_REPORT_RUNS)
      .map((r) => r.runId);
    const records = await Promise.all(ids.map((id) => sources.getRun(id)));
    return this.writeReport(overview, records, { locale: options.locale, writerVersion: options.writerVersion, date: options.date });
  }
}
