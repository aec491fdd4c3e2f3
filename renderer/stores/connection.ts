// The link to main (serve mode's WebSocket, or the Electron preload, which never drops): its state for the banner that
// says when the page has lost main, and a word to whoever listens when it comes back after a drop, since the events
// sent while it was down are lost.
import { defineStore } from 'pinia';
import { ref } from 'vue';

import { transport } from '../api/index.ts';
import type { ConnectionState } from '../api/index.ts';

export const useConnectionStore = defineStore('connection', () => {
  const state = ref<ConnectionState>(transport.state);
  // The store lives as long as the app: this listener is never removed.
  transport.onState((next) => (state.value = next));

  // Not on a first 'open' after the listener came: only a link that dropped and came back missed events. Returns the
  // function that stops listening.
  function onReconnect(listener: () => void): () => void {
    let wasClosed = transport.state === 'closed';
    return transport.onState((next) => {
      if (next === 'closed') wasClosed = true;
      else if (next === 'open' && wasClosed) {
        wasClosed = false;
        listener();
      }
    });
  }

  return { state, onReconnect };
});
