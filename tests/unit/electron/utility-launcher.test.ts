// The compute host as an Electron utility process, over a fake utilityProcess module: what is forked, messages both
// ways, output lines for the log, one exit however it ends (a fatal error's reason on it, a failed fork as an exit),
// and a kill that ends even a host that ignores SIGTERM.
import { spawn } from 'node:child_process';
import { once, EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { hostEntryPath } from '../../../main/engine/launcher.ts';
import type { HostExit } from '../../../main/engine/launcher.ts';
import { TEST_HOOKS_ENV } from '../../../main/common/host-protocol.ts';
import { utilityLauncher } from '../../../main/electron/utility-launcher.ts';
import type { UtilityChild, UtilityProcessModule } from '../../../main/electron/utility-launcher.ts';

class FakeChild extends EventEmitter implements UtilityChild {
  pid: number | undefined = undefined;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly posted: unknown[] = [];
  kills = 0;
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  kill(): boolean {
    this.kills += 1;
    return true;
  }
}

function fakeUtilityProcess(options: { failWith?: Error } = {}) {
  const forks: { modulePath: string; args: string[] | undefined; options: Parameters<UtilityProcessModule['fork']>[2] }[] = [];
  const child = new FakeChild();
  const module: UtilityProcessModule = {
    fork(modulePath, args, forkOptions) {
      forks.push({ modulePath, args, options: forkOptions });
      if (options.failWith) throw options.failWith;
      return child;
    },
  };
  return { module, forks, child };
}

function exits(host: { onExit(l: (e: HostExit) => void): void }): HostExit[] {
  const seen: HostExit[] = [];
  host.onExit((e) => seen.push(e));
  return seen;
}

describe('utility-process launcher', () => {
  it('forks the compute host entry with piped output, a service name and the env it is given', () => {
    const { module, forks } = fakeUtilityProcess();
    utilityLauncher(module).launch({ [TEST_HOOKS_ENV]: '1' });
    expect(forks).toHaveLength(1);
    expect(forks[0]?.modulePath).toBe(hostEntryPath());
    expect(forks[0]?.options).toMatchObject({ stdio: 'pipe', serviceName: 'GPU Lab compute host', env: { [TEST_HOOKS_ENV]: '1', PATH: process.env.PATH } });
  });

  it("gives every host the app's own settings over main's environment (a packaged app's addon path wins)", () => {
    const { module, forks } = fakeUtilityProcess();
    const previous = process.env.GPU_LAB_ADDON;
    process.env.GPU_LAB_ADDON = '/tmp/someone-elses.node';
    try {
      utilityLauncher(module, { GPU_LAB_ADDON: '/opt/GPU Lab/resources/app.asar.unpacked/native/build/Release/gpu_lab.node' }).launch({});
    } finally {
      if (previous === undefined) delete process.env.GPU_LAB_ADDON;
      else process.env.GPU_LAB_ADDON = previous;
    }
    expect(forks[0]?.options?.env?.GPU_LAB_ADDON).toBe('/opt/GPU Lab/resources/app.asar.unpacked/native/build/Release/gpu_lab.node');
  });

  it('carries messages both ways', () => {
    const { module, child } = fakeUtilityProcess();
    const host = utilityLauncher(module).launch({});
    const received: unknown[] = [];
    host.onMessage((m) => received.push(m));
    host.send({ type: 'ping', id: 1 });
    child.emit('message', { type: 'pong', id: 1 });
    expect(child.posted).toEqual([{ type: 'ping', id: 1 }]);
    expect(received).toEqual([{ type: 'pong', id: 1 }]);
  });

  it('hands complete output lines to the log, naming the stream', () => {
    const { module, child } = fakeUtilityProcess();
    const lines: string[] = [];
    utilityLauncher(module).launch({}).onOutput((line, stream) => lines.push(`${stream}: ${line}`));
    child.stdout.write('loading the add');
    child.stdout.write('on\n\ncuda: no device\n');
    child.stderr.write('warning\n');
    expect(lines).toEqual(['stdout: loading the addon', 'stdout: cuda: no device', 'stderr: warning']);
  });

  it('reports one exit, with the reason of a fatal error, to listeners before and after it', async () => {
    const { module, child } = fakeUtilityProcess();
    const host = utilityLauncher(module).launch({});
    const before = exits(host);
    child.emit('error', 'FatalError', 'v8::ToLocalChecked Empty MaybeLocal', 'report');
    child.emit('exit', 134);
    child.emit('exit', 134);
    const after = exits(host);
    await Promise.resolve();
    expect(before).toEqual([{ code: 134, signal: null, error: 'FatalError at v8::ToLocalChecked Empty MaybeLocal' }]);
    expect(after).toEqual(before);
    host.send({ type: 'ping', id: 2 });
    expect(child.posted).toEqual([]);
  });

  it('reports a fork that throws as an exit carrying the reason, without crashing main', async () => {
    const { module } = fakeUtilityProcess({ failWith: new Error('utilityProcess cannot be created before app is ready') });
    const host = utilityLauncher(module).launch({});
    expect(host.pid).toBeUndefined();
    const seen = exits(host);
    host.send({ type: 'ping', id: 1 });
    host.kill();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([{ code: null, signal: null, error: 'utilityProcess cannot be created before app is ready' }]);
  });

  it('asks Electron to stop a host that has no pid yet', () => {
    const { module, child } = fakeUtilityProcess();
    utilityLauncher(module).launch({}).kill();
    expect(child.kills).toBe(1);
  });

  it('kills a running host with SIGKILL, which a host stuck in its work cannot ignore', async () => {
    const stubborn = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)"], { stdio: ['ignore', 'pipe', 'ignore'] });
    await once(stubborn.stdout, 'data');
    const { module, child } = fakeUtilityProcess();
    child.pid = stubborn.pid;
    const host = utilityLauncher(module).launch({});
    const ended = once(stubborn, 'exit');
    host.kill();
    expect(await ended).toEqual([null, 'SIGKILL']);
    expect(child.kills).toBe(0);
  });
});
