// What the API client needs from a shell: call a method by name, hear events, and know whether the link to main is
// up. One implementation over the Electron preload, one over serve mode's WebSocket.
import type { ApiEvent, ApiMethod } from '../../main/common/contract/index.ts';
import type { ApiResponse } from '../../main/common/contract/wire.ts';

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface Transport {
  call(method: ApiMethod, args: unknown[]): Promise<ApiResponse>;
  // Returns the function that stops listening.
  on(event: ApiEvent, listener: (payload: unknown) => void): () => void;
  // The link's state, and a listener for its changes: after a reconnect, the stores fetch what they may have missed.
  readonly state: ConnectionState;
  onState(listener: (state: ConnectionState) => void): () => void;
}
