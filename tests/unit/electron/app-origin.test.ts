// Who may call the API over IPC: only the main frame of the app's window while it shows app://gpu-lab. A page that
// got into the window some other way (another origin, a subframe, a local file) is refused, and so is a call whose
// frame is gone.
import { describe, expect, it } from 'vitest';

import { appSenderCheck, isAppUrl } from '../../../main/electron/app-origin.ts';
import type { FrameLike } from '../../../main/electron/app-origin.ts';

const mainFrame: FrameLike = { url: 'app://gpu-lab/index.html#/labs', processId: 7, routingId: 1 };
const check = appSenderCheck(() => mainFrame);

describe('IPC sender check', () => {
  it("accepts the app window's main frame on app://gpu-lab", () => {
    expect(check({ senderFrame: { ...mainFrame } })).toBeNull();
    expect(check({ senderFrame: { ...mainFrame, url: 'app://gpu-lab/index.html#/runs/matmul-1' } })).toBeNull();
  });

  it('refuses the main frame once it shows another origin', () => {
    for (const url of ['https://evil.example/', 'http://127.0.0.1:8080/', 'app://other/index.html', 'app://gpu-lab.evil/', 'app://gpu-lab@evil/', 'app://gpu-lab:81/']) {
      expect(check({ senderFrame: { ...mainFrame, url } }), url).toMatch(/not the app's own/);
    }
  });

  it('refuses a subframe, even one on app://gpu-lab', () => {
    expect(check({ senderFrame: { ...mainFrame, routingId: 2 } })).toMatch(/not the main frame/);
    expect(check({ senderFrame: { ...mainFrame, processId: 8 } })).toMatch(/not the main frame/);
  });

  it('refuses a file:// page in the main frame', () => {
    expect(check({ senderFrame: { ...mainFrame, url: 'file:///tmp/index.html' } })).toMatch(/not the app's own/);
  });

  it('refuses a call whose frame is gone, or once the window is gone', () => {
    expect(check({ senderFrame: null })).toMatch(/gone/);
    expect(appSenderCheck(() => null)({ senderFrame: mainFrame })).toMatch(/not the main frame/);
  });

  it('refuses, with a reason, a frame that throws when read (Electron disposed it meanwhile)', () => {
    const disposed = {
      get url(): string {
        throw new Error('Render frame was disposed before WebFrameMain could be accessed');
      },
      processId: 7,
      get routingId(): number {
        throw new Error('Render frame was disposed before WebFrameMain could be accessed');
      },
    };
    expect(check({ senderFrame: disposed })).toMatch(/cannot be read \(Render frame was disposed/);
  });

  it('reads app URLs by their parts, not their first letters', () => {
    expect(isAppUrl('app://gpu-lab/assets/index-1a2b.js')).toBe(true);
    expect(isAppUrl('app://gpu-lab.example.com/')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });
});
