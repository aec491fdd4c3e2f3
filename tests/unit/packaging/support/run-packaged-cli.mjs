// Runs the gpu-lab command line of a packaged GPU Lab, from inside its asar (dist/main/cli/main.js as Electron's fs
// shows it), under plain Node, with the arguments given; prints what it writes and exits with its code.
//
//   node --import ./record-modules.mjs run-packaged-cli.mjs <resources folder> [gpu-lab arguments…]
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [resourcesPath, ...args] = process.argv.slice(2);
const { runCli } = await import(pathToFileURL(join(resourcesPath, 'app.asar', 'dist', 'main', 'cli', 'main.js')).href);
process.exitCode = await runCli(args, { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) });
