// Whether a stored run that says it is queued or running still is: its runner (pid and start time) is asked about on
// the machine it ran on alone. A data folder may be shared by several machines (a cluster's home directory, a synced
// folder), where a pid of another machine names nothing here: such a run is left as it says, whatever this machine's
// process table holds. A record from before runs named their machine is judged here, as it always was.
import type { RunRecord } from '../common/run-record.ts';
import { processAlive, thisMachine, whereRuns } from '../engine/process-identity.ts';
import type { MachineIdentity } from '../engine/process-identity.ts';

export type RunnerState = 'finished' | 'alive' | 'gone' | 'elsewhere';

export function runnerState(record: RunRecord, here: MachineIdentity = thisMachine()): RunnerState {
  if (record.status !== 'queued' && record.status !== 'running') return 'finished';
  const { runnerHost, runnerPid, runnerStartTicks } = record.environment;
  const where = runnerHost === undefined ? 'this-boot' : whereRuns(runnerHost, here);
  if (where === 'elsewhere') return 'elsewhere';
  if (where === 'earlier-boot' || runnerPid === undefined || runnerPid === null) return 'gone';
  return processAlive(runnerPid, runnerStartTicks ?? null) ? 'alive' : 'gone';
}

// The record as a run whose runner stopped before it finished (killed, crashed, power lost): failed with
// RUN_INTERRUPTED, keeping the points it had.
export function interruptedRun(record: RunRecord): RunRecord {
  const pid = record.environment.runnerPid ?? null;
  return {
    ...record,
    status: 'failed',
    error: {
      code: 'RUN_INTERRUPTED',
      message: `The process that ran this lab${pid === null ? '' : ` (pid ${pid})`} stopped before the run finished; the ${record.points.length} point(s) measured until then are kept`,
    },
  };
}
