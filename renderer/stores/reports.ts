// The PDF reports main writes, asked for by the pages that offer them: of runs (one, two compared, kernel runs), of
// every lab on a device (with what it would hold, shown before anything is written), and of one lab or all across
// devices (with the comparison the page shows). Nothing here is shared between pages: each asks for its own.
import { defineStore } from 'pinia';

import type {
  DevicesComparison,
  DevicesReportRequest,
  LabsReportContents,
  LabsReportRequest,
  ReportFile,
  ReportRequest,
} from '../../main/common/contract/reports.ts';
import type { LabId } from '../../main/common/lab-descriptor.ts';
import { api } from '../api/index.ts';

export const useReportsStore = defineStore('reports', () => {
  const writeReport = (request: ReportRequest): Promise<ReportFile> => api.reports.writeReport(request);
  const labsReportContents = (device: string): Promise<LabsReportContents> => api.reports.labsReportContents(device);
  const writeLabsReport = (request: LabsReportRequest): Promise<ReportFile> => api.reports.writeLabsReport(request);
  const compareDevices = (lab: LabId): Promise<DevicesComparison> => api.reports.compareDevices(lab);
  const writeDevicesReport = (request: DevicesReportRequest): Promise<ReportFile> => api.reports.writeDevicesReport(request);

  return { writeReport, labsReportContents, writeLabsReport, compareDevices, writeDevicesReport };
});
