#!/usr/bin/env node
// The gpu-lab command. Runs the compiled CLI (dist/, built by `npm run build:ts`); from a source checkout on a Node
// that strips TypeScript types, it falls back to the sources.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'main', 'cli', 'main.js');
const entry = existsSync(compiled) ? compiled : join(root, 'main', 'cli', 'main.ts');
const { processIo, runCli } = await import(pathToFileURL(entry).href);
// A batch job's tasks start the command as it was started here: this Node and this file, by absolute paths.
const self = [process.execPath, fileURLToPath(import.meta.url)];
process.exitCode = await runCli(process.argv.slice(2), processIo(), process.env, { self });
