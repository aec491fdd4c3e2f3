// How long a lab's run takes at most on a device, from its plan: the engine stops sampling a point once its time
// budget is spent (pointBudgetSeconds, as the runner gives it), and the plan counts what else the point takes (its
// warm-up and the check of its result: expectedSeconds). The sum of both over the points measured there, with the
// Python peers the machine's interpreter offers, as a run from the lab's page asks for them. With the defaults, what
// the catalog shows of a lab not yet run, labelled "at most". Like the plan's budgets, it rests on the plan's guessed
// rates: a machine far slower than they guess can take longer.
import type { LabTimeBound } from '../common/contract/labs.ts';
import type { ParamValues } from '../common/lab-descriptor.ts';
import { validateParams } from '../common/params.ts';
import { PEER_LIBRARIES, type PeerLibrary, type PeersReport } from '../common/peer-protocol.ts';
import type { HostEnvironment } from '../engine/supervisor.ts';
import type { Lab } from '../labs/lab.ts';
import { checkDevice, peersAsked, planContext } from './lab-runner.ts';
import { pointBudgetSeconds } from './point-budget.ts';

// The peer libraries the interpreter offers (none where it was not asked, or has none).
export function offeredPeers(peers: PeersReport | null): PeerLibrary[] {
  return PEER_LIBRARIES.filter((l) => peers?.available === true && peers.probe.libraries[l]?.found === true);
}

// `params` as a run takes them (the defaults fill in the rest); `peers`: what the interpreter offers.
export function runTimeBound(lab: Lab, env: HostEnvironment, device: string, peers: PeersReport | null, params: ParamValues = {}): number {
  checkDevice(env.devices, device);
  const asked = peersAsked(lab, offeredPeers(peers));
  const planned = lab.plan(validateParams(lab.descriptor.id, lab.descriptor.parameters, params), planContext(env, device, asked.length && peers ? { asked, report: peers } : undefined));
  return planned.reduce((sum, p) => sum + (p.measurement ? pointBudgetSeconds(p) + p.expectedSeconds : 0), 0);
}

export function defaultsTimeBounds(labs: readonly Lab[], env: HostEnvironment, device: string, peers: PeersReport | null): LabTimeBound[] {
  return labs.map((lab) => ({ lab: lab.descriptor.id, atMostSeconds: runTimeBound(lab, env, device, peers) }));
}
