// What the compiler made of a playground kernel, as Compiler Explorer shows it: the PTX NVRTC wrote, and the SASS of
// the cubin as nvdisasm (or, without line numbers, cuobjdump) prints it, each line with the line of the student's
// source it came from. NVRTC compiles with -lineinfo: the PTX carries `.loc FILE LINE COLUMN` before the
// instructions of each line, and the cubin a line table nvdisasm prints as `//## File "…", line N` comments. Lines
// past the student's source (the signature check appended to it) and other files' lines map to null. The tools are
// the CUDA toolkit's, found where the toolkit puts them; neither is needed to run a kernel.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import { promisify } from 'node:util';

import { MAX_LISTING_LINES } from '../common/playground.ts';
import type { Listing } from '../common/playground.ts';

const run = promisify(execFile);
const TOOL_TIMEOUT_MS = 20_000;

type Line = Listing['lines'][number];

function listing(kind: Listing['kind'], tool: string, lines: Line[]): Listing {
  const truncated = Math.max(0, lines.length - MAX_LISTING_LINES);
  return { kind, tool, lines: truncated ? lines.slice(0, MAX_LISTING_LINES) : lines, truncated, unavailable: null };
}

export function unavailableListing(kind: Listing['kind'], reason: string): Listing {
  return { kind, tool: null, lines: [], truncated: 0, unavailable: reason };
}

// A line of the student's source, or null where the line is theirs no more (the appended check) or another file's.
function sourceLine(file: string, line: number, fileName: string, sourceLines: number): number | null {
  return basename(file) === fileName && line >= 1 && line <= sourceLines ? line : null;
}

// The PTX without its .file/.loc directives and DWARF sections (noise to a reader), each remaining line mapped to
// the .loc before it; a function's closing brace ends the mapping.
export function ptxListing(ptx: string, fileName: string, sourceLines: number, tool: string): Listing {
  // The file table comes after the functions that name it.
  const files = new Map<string, string>();
  for (const m of ptx.matchAll(/^\s*\.file\s+(\d+)\s+"([^"]*)"/gm)) files.set(m[1] ?? '', m[2] ?? '');
  const out: Line[] = [];
  let current: number | null = null;
  let inDebugSection = false;
  for (const text of ptx.split('\n')) {
    const trimmed = text.trim();
    if (inDebugSection) {
      if (trimmed === '}') inDebugSection = false;
      continue;
    }
    if (/^\.section\s+\.debug/.test(trimmed)) {
      inDebugSection = true;
      continue;
    }
    if (trimmed.startsWith('.file')) continue;
    const loc = /^\.loc\s+(\d+)\s+(\d+)/.exec(trimmed);
    if (loc) {
      current = sourceLine(files.get(loc[1] ?? '') ?? '', Number(loc[2]), fileName, sourceLines);
      continue;
    }
    if (trimmed === '}') {
      out.push({ text, source: null });
      current = null;
      continue;
    }
    out.push({ text, source: trimmed === '' ? null : current });
  }
  while (out.length && out[out.length - 1]?.text.trim() === '') out.pop();
  return listing('ptx', tool, out);
}

// nvdisasm -g's text: `//## File "sgemm.cu", line 12` (and `… inlined at …`) before the instructions of that line.
export function sassListing(text: string, fileName: string, sourceLines: number, tool: string): Listing {
  const out: Line[] = [];
  let current: number | null = null;
  for (const line of text.split('\n')) {
    const marker = /\/\/## File "([^"]*)", line (\d+)/.exec(line);
    if (marker) {
      current = sourceLine(marker[1] ?? '', Number(marker[2]), fileName, sourceLines);
      continue;
    }
    const trimmed = line.trim();
    // A new function's code (".text.sgemm:") starts unmapped.
    if (trimmed.startsWith('.text.')) current = null;
    // Only instructions ("/*0040*/  IMAD …") come from a line; labels and directives from none.
    out.push({ text: line, source: /^\/\*[0-9a-f]{4,}\*\//.test(trimmed) ? current : null });
  }
  while (out.length && out[out.length - 1]?.text.trim() === '') out.pop();
  return listing('sass', tool, out);
}

// The toolkit's bin folders, in the order a user's set-up names them: PATH, then CUDA_PATH, CUDA_HOME, the default.
export function toolCandidates(name: string, env: Record<string, string | undefined>): string[] {
  const dirs = [...(env.PATH ?? '').split(delimiter).filter(Boolean), ...[env.CUDA_PATH, env.CUDA_HOME].filter((d): d is string => !!d).map((d) => join(d, 'bin')), '/usr/local/cuda/bin'];
  return [...new Set(dirs.map((d) => join(d, name)))];
}

interface Tool {
  path: string;
  // "nvdisasm 13.0"
  label: string;
}

const found = new Map<string, Promise<Tool | null>>();

async function findTool(name: string, env: Record<string, string | undefined>): Promise<Tool | null> {
  const path = toolCandidates(name, env).find((p) => existsSync(p));
  if (!path) return null;
  try {
    const { stdout } = await run(path, ['--version'], { timeout: TOOL_TIMEOUT_MS });
    const release = /release (\d+\.\d+)/.exec(stdout);
    return { path, label: release ? `${name} ${release[1]}` : name };
  } catch {
    return null;
  }
}

function tool(name: string, env: Record<string, string | undefined>): Promise<Tool | null> {
  let t = found.get(name);
  if (!t) {
    t = findTool(name, env);
    found.set(name, t);
  }
  return t;
}

// The SASS of a cubin: nvdisasm with line numbers where it is installed, else cuobjdump's (without them), else why not.
export async function disassemble(cubin: Uint8Array, fileName: string, sourceLines: number, env: Record<string, string | undefined> = process.env): Promise<Listing> {
  const nvdisasm = await tool('nvdisasm', env);
  const cuobjdump = nvdisasm ? null : await tool('cuobjdump', env);
  if (!nvdisasm && !cuobjdump) {
    return unavailableListing('sass', `neither nvdisasm nor cuobjdump (the CUDA toolkit's disassemblers) was found in PATH, CUDA_PATH/bin, CUDA_HOME/bin or /usr/local/cuda/bin`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'gpu-lab-sass-'));
  try {
    const file = join(dir, 'kernel.cubin');
    await writeFile(file, cubin);
    const tool = nvdisasm ?? (cuobjdump as Tool);
    const { stdout } = await run(tool.path, nvdisasm ? ['-c', '-g', file] : ['-sass', file], { timeout: TOOL_TIMEOUT_MS, maxBuffer: 256 * 1024 * 1024 });
    return sassListing(stdout, fileName, sourceLines, nvdisasm ? tool.label : `${tool.label} (no line numbers: nvdisasm was not found)`);
  } catch (err) {
    return unavailableListing('sass', `the disassembler failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
