// Where the app's own page lives: app://gpu-lab/…, served from the renderer build by the app protocol. IPC trusts
// only the main frame of the app's window while it shows a page from here.
export const APP_SCHEME = 'app';
export const APP_HOST = 'gpu-lab';
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

// Parsed, not compared as a prefix: "app://gpu-lab.evil/" and "app://gpu-lab@evil/" start with the same letters.
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

// The part of Electron's WebFrameMain the check reads. A frame is named by its process and routing ids; a frame
// object is not promised to be the same JS object from one event to the next.
export interface FrameLike {
  readonly url: string;
  readonly processId: number;
  readonly routingId: number;
}

export interface SenderEvent {
  readonly senderFrame: FrameLike | null;
}

// Why an IPC call is refused, or null when it comes from the app's own page. `appFrame` answers the main frame of
// the app's window, or null once that window is gone.
export type SenderCheck<E> = (event: E) => string | null;

export function appSenderCheck(appFrame: () => FrameLike | null): SenderCheck<SenderEvent> {
  const check = (event: SenderEvent): string | null => {
    // Electron gives null for a frame that has navigated away or been destroyed since it sent the call.
    const frame = event.senderFrame;
    if (!frame) return 'the sending frame is gone';
    const main = appFrame();
    if (!main || frame.processId !== main.processId || frame.routingId !== main.routingId) {
      return `the sender is not the main frame of the app's window (${frame.url})`;
    }
    if (!isAppUrl(frame.url)) return `the sender's page is not the app's own (${frame.url})`;
    return null;
  };
  return (event) => {
    try {
      return check(event);
    } catch (err) {
      // Reading a frame that was disposed meanwhile throws ("Render frame was disposed"): such a sender is refused
      // like a missing one, with an answer, rather than failing the call with an uncoded error.
      return `the sending frame cannot be read (${err instanceof Error ? err.message : String(err)})`;
    }
  };
}
