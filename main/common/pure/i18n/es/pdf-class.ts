// El PDF de la clase: su título, el resumen de la clase en cada laboratorio y la parte de cada alumno. Su tabla y sus
// rangos se leen como en la vista del profesor ("classroom.…"). Bajo "pdf.class".
import type { pdfClass as english } from '../en/pdf-class.ts';
import type { TextOf } from '../translate.ts';

export const pdfClass: TextOf<typeof english> = {
  title: 'Informe de la clase: {className}',
  subject: 'Las ejecuciones de la clase {className}, laboratorio a laboratorio y alumno a alumno',
  keyword: 'clase',
  facts: { class: 'Clase', students: 'Alumnos', runs: 'Ejecuciones en el informe' },
  summaryTitle: 'La clase, laboratorio a laboratorio',
  numbersTitle: 'Los números de la clase',
  columnRange: '{name}: {range}',
  columnNoRange: '{name}: menos de {min} alumnos tienen un valor, así que no hay rango y no se marca a nadie.',
  outliersTitle: 'Fuera del rango de la clase',
  outlier: '{student}: {name} {value} ({interval}), {against}.',
  noOutliers: 'El número de ningún alumno queda fuera del rango de la clase, hasta donde dicen los intervalos.',
  studentsTitle: 'Las ejecuciones de cada alumno',
  studentPart: '{student} · {lab}',
  noStudents: 'Aún no se ha unido ningún alumno a la clase.',
  noRun: 'Aún sin ninguna ejecución terminada: {students}.',
  leftOut:
    'Una ejecución del resumen no tiene aquí sección propia: el informe da sección a {max} ejecuciones como mucho. Sus números están en el resumen y en el CSV de la clase, y su informe completo en la página de la ejecución. | {count} ejecuciones del resumen no tienen aquí sección propia: el informe da sección a {max} ejecuciones como mucho. Sus números están en el resumen y en el CSV de la clase, y el informe completo de cada una en la página de su ejecución.',
};
