// The author and course a PDF report names, remembered on this computer (localStorage) so that a student types them
// once: one pair of refs for every report control of the page, whichever view shows it. They are made in a scope of
// their own: made inside the first component's setup, their saving would stop when that component unmounts.
import { effectScope } from 'vue';
import type { Ref } from 'vue';

import { remembered } from '../../composables/remembered.ts';

interface ReportFields {
  author: Ref<string>;
  course: Ref<string>;
}

let fields: ReportFields | undefined;

export function reportFields(): ReportFields {
  fields ??= effectScope(true).run(() => ({ author: remembered<string>('report.author', ''), course: remembered<string>('report.course', '') }));
  if (!fields) throw new Error('the report fields could not be made');
  return fields;
}

// The longest author or course main accepts (main/reports/report-input.ts): the field stops there as the user types.
export const REPORT_FIELD_MAX = 200;
