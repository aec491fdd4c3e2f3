// --python PATH: the interpreter the Python peers run on, for this command's compute host (it inherits this
// process's environment). The person at the machine names it here, in GPU_LAB_PYTHON or in the app's settings;
// serve mode never takes one from a browser, which would let a token holder run any program on the server.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

import { PEER_LIBRARIES, PYTHON_ENV } from '../common/peer-protocol.ts';
import type { PeerLibrary } from '../common/peer-protocol.ts';
import { UsageError } from './command.ts';


export function usePython(path: string | undefined): void {
  if (path === undefined) return;
  // A bare name (python3.12) is looked up in PATH when started; a path must name a file.
  const named = path.includes('/') ? (isAbsolute(path) ? path : resolve(path)) : path;
  if (named.includes('/') && !(existsSync(named) && statSync(named).isFile())) throw new UsageError('usage.python', { value: path });
  process.env[PYTHON_ENV] = named;
}

// --peers all|none|numpy,torch,…: the peer libraries a run times beside the engine (absent: all of them).
export function parsePeers(value: string | undefined): PeerLibrary[] | undefined {
  if (value === undefined || value === 'all') return undefined;
  if (value === 'none') return [];
  const names = value.split(',').map((s) => s.trim());
  const wrong = names.find((n) => !(PEER_LIBRARIES as readonly string[]).includes(n));
  if (wrong !== undefined || names.length === 0) throw new UsageError('usage.peers', { value, libraries: PEER_LIBRARIES.join(', ') });
  return [...new Set(names as PeerLibrary[])];
}
