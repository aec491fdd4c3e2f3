#!/usr/bin/env node
// The gpu-lab command. Runs the compiled CLI (dist/, built by `npm run build:ts`); from a source checkout on a Node
// that strips TypeScript types, it falls back to the sources.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// A reader that stops early (`gpu-lab runs list | head -1`) closes the pipe: the rest of the output has nowhere to go,
// and the command ends quietly, with success, as other Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'main', 'cli', 'main.js');
const entry = existsSync(compiled) ? compiled : join(root, 'main', 'cli', 'main.ts');
const { runCli } = await import(pathToFileURL(entry).href);
const code = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  ...(process.stderr.isTTY ? { terminal: { columns: () => process.stderr.columns || 80 } } : {}),
});
process.exitCode = code;
