// The production dependency tree as npm installed it (`npm ls --omit=dev --all --json`): what electron-builder packs
// into app.asar's node_modules. An optional dependency npm did not install for this system (another platform's build
// of @napi-rs/canvas) is not in it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

interface LsNode {
  version?: string;
  missing?: boolean;
  dependencies?: Record<string, LsNode>;
}

export interface ProductionTree {
  // Every installed package of the tree, as name@version.
  packages: Set<string>;
  // The root's own production dependencies, by name: the version installed, or null where it is missing.
  direct: Map<string, string | null>;
  // What npm found wrong (missing, invalid or extraneous packages).
  problems: string[];
}

const run = promisify(execFile);

// npm, as the test was started by it (npm test), or the one on PATH.
function npmCommand(): { command: string; args: string[] } {
  const cli = process.env.npm_execpath;
  return cli && /\.(c?js|mjs)$/.test(cli) ? { command: process.execPath, args: [cli] } : { command: 'npm', args: [] };
}

export async function productionPackages(root: string): Promise<ProductionTree> {
  const { command, args } = npmCommand();
  // npm ls exits with 1 when it finds a problem, and still prints the tree.
  const stdout = await run(command, [...args, 'ls', '--omit=dev', '--all', '--json'], { cwd: root, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => r.stdout,
    (err: { stdout?: string }) => err.stdout ?? '{}',
  );
  const tree = JSON.parse(stdout) as LsNode & { problems?: string[] };
  const packages = new Set<string>();
  const walk = (deps: Record<string, LsNode> | undefined): void => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      if (node.version && !node.missing) packages.add(`${name}@${node.version}`);
      walk(node.dependencies);
    }
  };
  walk(tree.dependencies);
  const direct = new Map(Object.entries(tree.dependencies ?? {}).map(([name, node]) => [name, node.version && !node.missing ? node.version : null]));
  return { packages, direct, problems: tree.problems ?? [] };
}
