// The playground's gate in front of NVRTC (SECURITY.md, "The kernel playground"): a kernel source may use the
// preprocessor only for macros and conditions, never to name a file. NVRTC reads any file the compute host can read
// for an #include (or probes it for __has_include) and echoes its lines in the compiler's log, so a blocklist of
// spellings is not enough: the check reads the source as the compiler's first phases do, then allows what is listed.
//
//   1. Refused outright, before anything else: control characters (NUL ends NVRTC's copy of the source early), and
//      any trigraph sequence (C++17 has none, GCC's preprocessor ignores them: refusing them keeps every reader of
//      the source in agreement).
//   2. Line splices (a backslash before a CR, LF or CRLF line end) are removed. A backslash followed by spaces and
//      then a line end is refused: some compilers splice there and others do not.
//   3. Comments become a space (a block comment spanning lines joins them, as the standard says); strings and
//      character literals are skipped with their escapes; a raw string literal is refused (its splices are undone,
//      which the check would have to mirror for no need of the exercises).
//   4. On the tokens that remain: a `#` (or its digraph `%:`) that begins a line must name an allowed directive:
//      define undef if ifdef ifndef elif else endif, and `pragma unroll`. Anywhere else a `#` may only stringize a
//      parameter of the #define it stands in. `##` (token pasting, which could assemble a forbidden name), `_Pragma`,
//      `__has_include`, `__has_include_next` (and GCC's older `__has_include__`, `__has_include_next__`), `__has_embed`
//      and a backslash outside a literal (a universal character name) are refused anywhere.
//
// Each refusal names the line and column of the student's source as their editor numbers it (CR, LF and CRLF each
// end a line; columns count UTF-16 units from 1).

export const ALLOWED_DIRECTIVES = ['define', 'undef', 'if', 'ifdef', 'ifndef', 'elif', 'else', 'endif'] as const;

// Names that no macro may assemble and no source may spell: each reaches a file or a pragma.
export const FORBIDDEN_IDENTIFIERS = ['_Pragma', '__pragma', '__has_include', '__has_include_next', '__has_include__', '__has_include_next__', '__has_embed'] as const;

// Every directive name some compiler knows: after a `#`, one of these is never a stringized parameter.
const DIRECTIVE_WORDS = new Set([
  ...ALLOWED_DIRECTIVES,
  'include', 'include_next', 'import', 'embed', 'line', 'pragma', 'error', 'warning', 'ident', 'sccs', 'assert', 'unassert', 'elifdef', 'elifndef',
]);

export type SourceRefusalReason =
  | 'control-character'
  | 'trigraph'
  | 'splice-before-space'
  | 'raw-string'
  | 'unterminated-comment'
  | 'unterminated-literal'
  | 'backslash'
  | 'directive'
  | 'stray-hash'
  | 'token-paste'
  | 'forbidden-identifier';

export interface SourceRefusal {
  line: number;
  column: number;
  reason: SourceRefusalReason;
  // What stands there: the directive's name, the identifier, the character.
  token: string;
}

const WHY: Record<SourceRefusalReason, (token: string) => string> = {
  'control-character': (t) => `the control character ${t} is not allowed in a kernel source`,
  trigraph: (t) => `the trigraph ${t} is not allowed (C++17 has no trigraphs)`,
  'splice-before-space': () => 'a backslash followed by spaces at the end of a line is not allowed: remove the spaces, or the backslash',
  'raw-string': () => 'raw string literals are not allowed in a kernel source',
  'unterminated-comment': () => 'this comment is never closed',
  'unterminated-literal': (t) => `this ${t === "'" ? 'character literal' : 'string'} is not closed on its line`,
  backslash: () => 'a backslash outside a string is not allowed (universal character names are not needed in a kernel)',
  directive: (t) =>
    `${t ? `the directive #${t}` : 'an empty directive (#)'} is not available in the playground: NVRTC compiles the kernel alone, and only #${ALLOWED_DIRECTIVES.join(', #')} and #pragma unroll are allowed`,
  'stray-hash': (t) => `a # here${t ? ` before "${t}"` : ''} is not allowed: # may only begin a directive, or stringize a parameter of a #define`,
  'token-paste': () => 'token pasting (##) is not allowed in the playground',
  'forbidden-identifier': (t) => `${t} is not available in the playground`,
};

export function describeSourceRefusal(r: SourceRefusal): string {
  return `line ${r.line}, column ${r.column}: ${WHY[r.reason](r.token)}`;
}

// A character of the source after splicing, with where the student typed it.
interface Placed {
  ch: string;
  line: number;
  column: number;
}

const NEWLINE = '\n';
const HORIZONTAL_SPACE = /[ \t\v\f]/;
// eslint-disable-next-line no-control-regex -- finding control characters is what it is for
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f]/;
const TRIGRAPH_LAST = new Set(['=', '/', "'", '(', ')', '!', '<', '>', '-']);

class Refused extends Error {
  readonly refusal: SourceRefusal;
  constructor(refusal: SourceRefusal) {
    super(describeSourceRefusal(refusal));
    this.refusal = refusal;
  }
}

function refuse(at: { line: number; column: number }, reason: SourceRefusalReason, token = ''): never {
  throw new Refused({ line: at.line, column: at.column, reason, token });
}

// Phases 1 and 2: the characters with their positions, line ends as one '\n', splices removed.
function splice(source: string): Placed[] {
  const out: Placed[] = [];
  let line = 1;
  let column = 1;
  // A line end at i: its length (2 for CRLF), or 0.
  const lineEnd = (i: number): number => (source[i] === '\r' ? (source[i + 1] === '\n' ? 2 : 1) : source[i] === '\n' ? 1 : 0);
  for (let i = 0; i < source.length; ) {
    const ch = source[i] ?? '';
    const here = { line, column };
    if (CONTROL.test(ch)) refuse(here, 'control-character', `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
    if (ch === '?' && source[i + 1] === '?' && TRIGRAPH_LAST.has(source[i + 2] ?? '')) refuse(here, 'trigraph', source.slice(i, i + 3));
    const end = lineEnd(i);
    if (end) {
      out.push({ ch: NEWLINE, ...here });
      i += end;
      line += 1;
      column = 1;
      continue;
    }
    if (ch === '\\') {
      let j = i + 1;
      while (HORIZONTAL_SPACE.test(source[j] ?? '')) j++;
      const after = lineEnd(j);
      if (after && j > i + 1) refuse(here, 'splice-before-space');
      if (after) {
        i = j + after;
        line += 1;
        column = 1;
        continue;
      }
    }
    out.push({ ch, ...here });
    i += 1;
    column += 1;
  }
  return out;
}

const IDENT_START = /[A-Za-z_$\u0080-\uffff]/;
const IDENT_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const RAW_PREFIXES = new Set(['R', 'u8R', 'uR', 'UR', 'LR']);
const LITERAL_PREFIXES = new Set(['u8', 'u', 'U', 'L']);

// Phases 3 and 4 on the spliced characters: comments, literals, and the tokens the allowlist judges.
class Scanner {
  private i = 0;
  private lineStart = true;
  // The directive the current line is, and a #define's parameters.
  private directive: string | null = null;
  private defineParams: Set<string> | null = null;

  private readonly chars: Placed[];

  constructor(chars: Placed[]) {
    this.chars = chars;
  }

  private at(k = 0): string {
    return this.chars[this.i + k]?.ch ?? '';
  }

  private place(k = 0): Placed {
    const last = this.chars[this.chars.length - 1];
    return this.chars[this.i + k] ?? { ch: '', line: last?.line ?? 1, column: (last?.column ?? 0) + 1 };
  }

  // Skips spaces and comments, never a line end; true when anything was skipped.
  private skipSpace(): boolean {
    const from = this.i;
    for (;;) {
      const c = this.at();
      if (HORIZONTAL_SPACE.test(c) || (c === '\uFEFF' && this.i === 0)) this.i++;
      else if (c === '/' && this.at(1) === '/') while (this.i < this.chars.length && this.at() !== NEWLINE) this.i++;
      else if (c === '/' && this.at(1) === '*') {
        const open = this.place();
        this.i += 2;
        while (this.i < this.chars.length && !(this.at() === '*' && this.at(1) === '/')) this.i++;
        if (this.i >= this.chars.length) refuse(open, 'unterminated-comment');
        this.i += 2;
      } else return this.i > from;
    }
  }

  private identifier(): string {
    let s = '';
    while (IDENT_PART.test(this.at())) s += this.chars[this.i++]?.ch ?? '';
    return s;
  }

  private literal(quote: string): void {
    const open = this.place();
    this.i++;
    for (;;) {
      const c = this.at();
      if (c === '' || c === NEWLINE) refuse(open, 'unterminated-literal', quote);
      this.i += c === '\\' ? 2 : 1;
      if (c === quote) return;
    }
  }

  private number(): void {
    this.i++;
    for (;;) {
      const c = this.at();
      if (/[eEpP]/.test(c) && /[+-]/.test(this.at(1))) this.i += 2;
      else if (/[A-Za-z0-9_.]/.test(c)) this.i++;
      else if (c === "'" && /[A-Za-z0-9_]/.test(this.at(1))) this.i += 2;
      else return;
    }
  }

  // A `#` or `%:` at the scanner's position: how many characters it takes, or 0.
  private hashLength(k = 0): number {
    if (this.at(k) === '#') return 1;
    return this.at(k) === '%' && this.at(k + 1) === ':' ? 2 : 0;
  }

  private hash(): void {
    const where = this.place();
    const length = this.hashLength();
    this.i += length;
    if (this.hashLength()) refuse(where, 'token-paste');
    const beginsLine = this.lineStart;
    this.lineStart = false;
    this.skipSpace();
    const namePlace = this.place();
    const name = IDENT_START.test(this.at()) ? this.identifier() : '';
    if (beginsLine) {
      if (!(ALLOWED_DIRECTIVES as readonly string[]).includes(name) && name !== 'pragma') refuse(where, 'directive', name);
      if (name === 'pragma') {
        this.skipSpace();
        const what = IDENT_START.test(this.at()) ? this.identifier() : '';
        if (what !== 'unroll') refuse(where, 'directive', `pragma${what ? ` ${what}` : ''}`);
      }
      this.directive = name;
      if (name === 'define') this.defineHead();
      return;
    }
    // Inside a #define's body, `#param` stringizes; a directive's name after it never.
    if (this.directive === 'define' && this.defineParams?.has(name) && !DIRECTIVE_WORDS.has(name)) return;
    refuse(name ? namePlace : where, 'stray-hash', name);
  }

  // After `#define`: the macro's name and, for a function-like macro, its parameters.
  private defineHead(): void {
    this.skipSpace();
    if (!IDENT_START.test(this.at())) return;
    this.checkIdentifier(this.place(), this.identifier());
    this.defineParams = new Set();
    if (this.at() !== '(') return;
    this.i++;
    for (;;) {
      this.skipSpace();
      const c = this.at();
      if (IDENT_START.test(c)) {
        const p = this.place();
        const name = this.identifier();
        this.checkIdentifier(p, name);
        this.defineParams.add(name);
      } else if (c === '.' && this.at(1) === '.' && this.at(2) === '.') {
        this.i += 3;
        this.defineParams.add('__VA_ARGS__');
      } else if (c === ',') this.i++;
      else return;
    }
  }

  private checkIdentifier(where: Placed, name: string): void {
    if ((FORBIDDEN_IDENTIFIERS as readonly string[]).includes(name)) refuse(where, 'forbidden-identifier', name);
  }

  run(): void {
    while (this.i < this.chars.length) {
      this.skipSpace();
      const c = this.at();
      if (c === '') return;
      const where = this.place();
      if (c === NEWLINE) {
        this.i++;
        this.lineStart = true;
        this.directive = null;
        this.defineParams = null;
        continue;
      }
      if (this.hashLength()) {
        this.hash();
        continue;
      }
      this.lineStart = false;
      if (IDENT_START.test(c)) {
        const name = this.identifier();
        this.checkIdentifier(where, name);
        const next = this.at();
        if (next === '"' && RAW_PREFIXES.has(name)) refuse(where, 'raw-string');
        if ((next === '"' || next === "'") && LITERAL_PREFIXES.has(name)) this.literal(next);
      } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(this.at(1)))) this.number();
      else if (c === '"' || c === "'") this.literal(c);
      else if (c === '\\') refuse(where, 'backslash');
      else this.i++;
    }
  }
}

// The first refusal of `source`, or null when the preprocessor can reach no file through it.
export function checkKernelSource(source: string): SourceRefusal | null {
  try {
    new Scanner(splice(source)).run();
    return null;
  } catch (err) {
    if (err instanceof Refused) return err.refusal;
    throw err;
  }
}
