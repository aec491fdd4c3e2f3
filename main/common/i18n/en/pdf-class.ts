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
};
