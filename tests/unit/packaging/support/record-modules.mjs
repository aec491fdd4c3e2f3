// Loaded with --import into the packaged main process and the compute host it forks (run-packaged-main.mjs): writes
// the file of every module the process resolves, ES module or require() (Node's module hooks see both), one URL a
// line, to the file named by GPU_LAB_MODULE_LOG, so that the test can tell where each came from.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const log = process.env.GPU_LAB_MODULE_LOG;
if (log) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      if (resolved.url.startsWith('file:')) appendFileSync(log, `${process.pid} ${resolved.url}\n`);
      return resolved;
    },
  });
}
