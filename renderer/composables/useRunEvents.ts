// Hears the runs' events while the component that asked lives: the kinds it names, and the link to main coming back
// (events sent while it was down are lost, so a listener refetches what it shows). Unsubscribes when the component's
// scope ends.
import { onScopeDispose } from 'vue';

import type { RunEvent } from '../../main/common/contract/runs.ts';
import { useConnectionStore } from '../stores/connection.ts';
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
  // The component fetches on mount; only a link that drops and comes back missed events.
  const stopReconnect = useConnectionStore().onReconnect(() => options.onReconnect?.());
  onScopeDispose(() => {
    stopEvents();
    stopReconnect();
  });
}
