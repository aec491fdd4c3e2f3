// The English catalog, one module per part of the app.
import { app } from './app.ts';

export const en = { app };
