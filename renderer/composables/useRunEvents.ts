// Hears the runs' events while the component that asked lives: the kinds it names, and the link to main coming back
// (events sent while it was down are lost, so a listener refetches what it shows). Unsubscribes when the component's
// scope ends.
import { onScopeDispose } from 'vue';

import type { RunEvent } from '../../main/common/contract/runs.ts';
import { transport } from '../api/index.ts';
import { useRunsStore } from '../stores/runs.ts';

export interface RunEventsOptions {
  kinds: readonly RunEvent['kind'][];
  onEvent: (event: RunEvent) => void;
  onReconnect?: () => void;
}

export function useRunEvents(options: RunEventsOptions): void {
  const stopEvents = useRunsStore().onRunEvent((event) => {
    if (options.kinds.includes(event.kind)) options.onEvent(event);
  });
  // Not on the first 'open': the component fetches on mount; only a link that drops and comes back missed events.
  let wasClosed = transport.state === 'closed';
  const stopState = transport.onState((state) => {
    if (state === 'closed') wasClosed = true;
    else if (state === 'open' && wasClosed) {
      wasClosed = false;
      options.onReconnect?.();
    }
  });
  onScopeDispose(() => {
    stopEvents();
    stopState();
  });
}
