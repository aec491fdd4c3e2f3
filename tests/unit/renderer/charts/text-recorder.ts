// Every text a chart draws, as the canvas drew it: fillText and strokeText are wrapped on the context's prototype, and
// each call is kept with its ink box (measureText's actual bounding box at the context's font, alignment and baseline,
// squeezed where a maxWidth squeezed the text), its four corners carried through the current transform (Chart.js
// turns the y axis's title a quarter turn; the device pixel ratio scales everything) into canvas pixels. A drawing
// starts over where the whole canvas is cleared, as Chart.js does before each frame. Self-contained, with no imports:
// Playwright hands the function's source to Chromium (page.addInitScript) and the headless tests call it on
// @napi-rs/canvas's context, so that both are measured alike.

export interface DrawnText {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

// What the recorder needs of a 2D context, the DOM's or @napi-rs/canvas's.
interface RecordedContext {
  canvas: { width: number; height: number };
  measureText(text: string): { width: number; actualBoundingBoxLeft: number; actualBoundingBoxRight: number; actualBoundingBoxAscent: number; actualBoundingBoxDescent: number };
  getTransform(): { a: number; b: number; c: number; d: number; e: number; f: number };
}

type TextCall = (this: RecordedContext, text: string, x: number, y: number, maxWidth?: number) => void;
type ClearCall = (this: RecordedContext, x: number, y: number, w: number, h: number) => void;

// `store` holds each context's texts (a WeakMap on the page, one the test keeps under Node).
export function installTextRecorder(prototype: object, store: WeakMap<object, DrawnText[]>): void {
  const proto = prototype as Record<string, unknown>;
  if (proto.__textRecorder === true) return;
  proto.__textRecorder = true;
  const corners = (ctx: RecordedContext, left: number, top: number, right: number, bottom: number): Omit<DrawnText, 'text'> => {
    const m = ctx.getTransform();
    const xs: number[] = [];
    const ys: number[] = [];
    for (const [x, y] of [[left, top], [right, top], [left, bottom], [right, bottom]] as const) {
      xs.push(m.a * x + m.c * y + m.e);
      ys.push(m.b * x + m.d * y + m.f);
    }
    return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
  };
  for (const name of ['fillText', 'strokeText']) {
    const original = proto[name] as TextCall;
    proto[name] = function (this: RecordedContext, text: string, x: number, y: number, maxWidth?: number) {
      const shown = String(text);
      if (shown.trim() !== '') {
        const m = this.measureText(shown);
        // A text wider than maxWidth is drawn narrowed to it, about its anchor.
        const squeeze = maxWidth !== undefined && maxWidth > 0 && m.width > maxWidth ? maxWidth / m.width : 1;
        const box = corners(this, x - m.actualBoundingBoxLeft * squeeze, y - m.actualBoundingBoxAscent, x + m.actualBoundingBoxRight * squeeze, y + m.actualBoundingBoxDescent);
        const list = store.get(this) ?? [];
        list.push({ text: shown, ...box });
        store.set(this, list);
      }
      if (maxWidth === undefined) original.call(this, text, x, y);
      else original.call(this, text, x, y, maxWidth);
    };
  }
  const clear = proto.clearRect as ClearCall;
  proto.clearRect = function (this: RecordedContext, x: number, y: number, w: number, h: number) {
    const box = corners(this, x, y, x + w, y + h);
    if (box.left <= 0 && box.top <= 0 && box.right >= this.canvas.width && box.bottom >= this.canvas.height) store.set(this, []);
    clear.call(this, x, y, w, h);
  };
}

// Two texts whose ink overlaps by more than `slack` canvas pixels each way (anti-aliasing's fraction of a pixel
// is not an overprint), and every text that reaches past the canvas's edge by more than `slack`.
export interface TextProblems {
  overlaps: [DrawnText, DrawnText][];
  outside: DrawnText[];
}

export function textProblems(texts: readonly DrawnText[], width: number, height: number, slack = 0.5): TextProblems {
  const overlaps: [DrawnText, DrawnText][] = [];
  texts.forEach((a, i) => {
    for (const b of texts.slice(i + 1)) {
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > slack && y > slack) overlaps.push([a, b]);
    }
  });
  const outside = texts.filter((t) => t.left < -slack || t.top < -slack || t.right > width + slack || t.bottom > height + slack);
  return { overlaps, outside };
}

// The problems as a reader of a failed test wants them: which texts, where.
export function describeProblems(p: TextProblems): string[] {
  const at = (t: DrawnText) => `"${t.text}" [${Math.round(t.left)}, ${Math.round(t.top)} – ${Math.round(t.right)}, ${Math.round(t.bottom)}]`;
  return [...p.overlaps.map(([a, b]) => `${at(a)} overlaps ${at(b)}`), ...p.outside.map((t) => `${at(t)} leaves the canvas`)];
}
