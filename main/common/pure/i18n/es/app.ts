// El marco de todas las vistas en español: la navegación, el selector de dispositivo, el tema, el idioma y la conexión.
import type { TextOf } from '../translate.ts';
import type { app as appEn } from '../en/app.ts';

export const app: TextOf<typeof appEn> = {
  name: 'GPU Lab',
  skipToContent: 'Saltar al contenido',
  nav: { label: 'Principal', labs: 'Laboratorios', devices: 'Dispositivos', playground: 'Taller de kernels', history: 'Historial', labList: 'Los laboratorios' },
  device: {
    label: 'Dispositivo',
    help: 'La GPU con la que cada laboratorio compara la CPU. Si eliges solo la CPU, las series de la GPU se omiten.',
    cpuOnly: 'Solo CPU',
    software: '{id} — {name} (por software: la CPU)',
    loading: 'Buscando dispositivos…',
  },
  theme: { label: 'Tema', system: 'Del sistema', light: 'Claro', dark: 'Oscuro' },
  language: { label: 'Idioma' },
  connection: {
    connecting: 'Conectando con GPU Lab…',
    closed: 'Se ha perdido la conexión con GPU Lab; reconectando. Una ejecución en curso sigue adelante sin esta página.',
  },
  liveRun: { running: '{lab}: {percent}', open: 'Ver la ejecución en curso' },
  notFound: { title: 'Aquí no hay nada', body: 'Esta página no existe.', back: 'Volver a los laboratorios' },
  error: { dismiss: 'Cerrar' },
  status: { queued: 'En cola', running: 'En curso', completed: 'Terminada', waived: 'Nada medido', cancelled: 'Cancelada', failed: 'Fallida' },
  copy: { copy: 'Copiar', copied: 'Copiado' },
};
