// Kernel sources that try to make the compiler read a file, in every spelling known to slip past a line-by-line
// check (the security report's list), alone and combined by a fixed-seed generator. Shared by the source check's
// oracle test, the serve-mode door test and the GPU door test (plain node: no test framework imported here).

// The pieces a hostile source is made of. `@` stands for the line end of the case.
const HASHES = ['#', '%:', '/**/#', '#/*c*/', '#\\@', '%\\@:', '  # ', '\t%: ', '/*a@b*/#'];
const WORDS = ['include', 'incl\\@ude', 'i\\@n\\@clude', 'include_next', 'import', 'includ\\@e'];
const PREFIXES = ['', 'int x;@', '// a comment@', '/* a @ comment */@', '#define SENTINEL_PATH "@PATH@"@', '#if 1@'];
const SUFFIXES = ['', '@', '@#endif@'];
const ENDS = ['\n', '\r\n', '\r'];

function build(path: string, prefix: string, hash: string, word: string, target: string, suffix: string, end: string): string {
  const define = prefix.includes('SENTINEL_PATH') || target !== 'SENTINEL_PATH' ? '' : `#define SENTINEL_PATH "${path}"@`;
  return `${define}${prefix}${hash}${word} ${target}${suffix}`.replaceAll('@PATH@', path).replaceAll('@', end) + end;
}

// `count` sources naming `path` through an include-like directive: every hash spelling with every word and line end
// first, then a fixed-seed sample of all the pieces combined.
export function includeSpellings(path: string, count = 500): string[] {
  const out = new Set<string>();
  for (const hash of HASHES) for (const word of WORDS) for (const end of ENDS) out.add(build(path, '', hash, word, `"${path}"`, '', end));
  let seed = 20261125;
  const pick = <T,>(xs: readonly T[]): T => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return xs[seed % xs.length] as T;
  };
  const targets = [`"${path}"`, `<${path}>`, 'SENTINEL_PATH'];
  while (out.size < count) out.add(build(path, pick(PREFIXES), pick(HASHES), pick(WORDS), pick(targets), pick(SUFFIXES), pick(ENDS)));
  return [...out];
}

// Probes, pragmas, pastes and the other spellings of the report: ways to reach a file without an #include line.
// `mark` is printed by a probe that found the file.
export function otherSpellings(path: string, mark: string): string[] {
  return [
    `/**/#include "${path}"\n`,
    `#if __has_include("${path}")\n${mark}\n#endif\n`,
    `#if __has_include_next("${path}")\n${mark}\n#endif\n`,
    `#if __has_include__("${path}")\n${mark}\n#endif\n`,
    `#if __has_include_next__("${path}")\n${mark}\n#endif\n`,
    `#if __has_embed("${path}")\n${mark}\n#endif\n`,
    `#define PROBE __has_include\n#if PROBE("${path}")\n${mark}\n#endif\n`,
    `#if __has_incl\\\nude("${path}")\n${mark}\n#endif\n`,
    `_Pragma("GCC dependency \\"${path}\\"")\n`,
    `#pragma GCC dependency "${path}"\n`,
    `%:pragma GCC dependency "${path}"\n`,
    `#define CAT(a, b) a##b\n#if CAT(__has_, include)("${path}")\n${mark}\n#endif\n`,
    `#define CAT(a, b) a%:%:b\n#if CAT(__has_, include)("${path}")\n${mark}\n#endif\n`,
    `#define P(x) _Pragma(#x)\nP(GCC dependency "${path}")\n`,
    `??=include "${path}"\n`,
    `#include \\\n"${path}"\n`,
    `#\\ \ninclude "${path}"\n`,
    `int a;\r#include "${path}"\r`,
    `#embed "${path}"\n`,
    `#line 1 "${path}"\n`,
  ];
}
