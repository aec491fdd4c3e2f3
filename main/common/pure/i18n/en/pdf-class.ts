// The class's PDF (main/reports/class-document.ts): its title, each lab's summary of the class and each student's
// part. Its table and ranges read as the teacher's view does ("classroom.…"). Under "pdf.class".
export const pdfClass = {
  title: 'Class report: {className}',
  subject: 'The runs of the class {className}, lab by lab and student by student',
  keyword: 'class',
  facts: { class: 'Class', students: 'Students', runs: 'Runs reported' },
  summaryTitle: 'The class, lab by lab',
  numbersTitle: 'The class’s numbers',
  columnRange: '{name}: {range}',
  columnNoRange: '{name}: fewer than {min} students have a value, so there is no range and nobody is flagged.',
  outliersTitle: 'Outside the class’s range',
  outlier: '{student}: {name} {value} ({interval}), {against}.',
  noOutliers: 'No student’s number lies outside the class’s range, as far as the intervals tell.',
  studentsTitle: 'Each student’s runs',
  studentPart: '{student} · {lab}',
  noStudents: 'No student has joined the class yet.',
  noRun: 'No finished run of any lab yet: {students}.',
  leftOut:
    'One run the summary shows has no section of its own here: the report gives a section to {max} runs at most. Its numbers are in the summary and in the class’s CSV, its whole report on its run’s page. | {count} runs the summary shows have no section of their own here: the report gives a section to {max} runs at most. Their numbers are in the summary and in the class’s CSV, each one’s whole report on its run’s page.',
};
