// Every text the page's charts draw, recorded as the canvas draws it: tests/unit/renderer/charts/text-recorder.ts,
// installed on CanvasRenderingContext2D before the app's first script on every page (as source text: the page's
// content security policy allows no eval), each canvas's texts kept in window.__chartTexts.
import type { Page } from '@playwright/test';

import { LANGUAGE_KEY } from '../../../renderer/i18n/language.ts';
import type { DrawnText } from '../../unit/renderer/charts/text-recorder.ts';
import { installTextRecorder } from '../../unit/renderer/charts/text-recorder.ts';

// `locale`: the language the app starts in, as if the user had chosen it.
export async function recordChartTexts(page: Page, locale?: string): Promise<void> {
  const language = locale === undefined ? '' : `try { localStorage.setItem(${JSON.stringify(LANGUAGE_KEY)}, ${JSON.stringify(locale)}); } catch {}`;
  await page.addInitScript({
    content: `window.__chartTexts = new WeakMap();
      (${installTextRecorder.toString()})(CanvasRenderingContext2D.prototype, window.__chartTexts);
      ${language}`,
  });
}

export interface CanvasTexts {
  texts: DrawnText[];
  width: number;
  height: number;
}

// The texts of every canvas on the page, as last drawn.
export async function chartTexts(page: Page): Promise<CanvasTexts[]> {
  return page.evaluate(() => {
    const store = (window as unknown as { __chartTexts: WeakMap<object, DrawnText[]> }).__chartTexts;
    return Array.from(document.querySelectorAll('canvas')).flatMap((canvas) => {
      const ctx = canvas.getContext('2d');
      return ctx ? [{ texts: store.get(ctx) ?? [], width: canvas.width, height: canvas.height }] : [];
    });
  });
}
