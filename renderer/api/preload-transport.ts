// The transport inside the Electron app: the preload's window.gpuLab, one function per contract method. IPC within
// one app does not drop, so the link is always open.
import type { ApiEvent, ApiMethod } from '../../main/common/contract/index.ts';
import type { ApiResponse, PreloadApi } from '../../main/common/contract/wire.ts';
import type { Transport } from './transport.ts';

type Member = (...args: unknown[]) => unknown;

function member(bridge: PreloadApi, name: ApiMethod | ApiEvent): Member {
  const [service, method] = name.split('.') as [keyof PreloadApi, string];
  const fn = (bridge[service] as unknown as Record<string, Member | undefined>)[method];
  if (typeof fn !== 'function') throw new Error(`The preload does not expose ${name}: the app's preload and renderer are out of step`);
  return fn;
}

export function preloadTransport(bridge: PreloadApi): Transport {
  return {
    call: (method, args) => member(bridge, method)(...args) as Promise<ApiResponse>,
    on: (event, listener) => member(bridge, event)(listener) as () => void,
    state: 'open',
    onState: () => () => undefined,
  };
}
