// A student's name in a class (classroom mode): what a student types on the join page, checked the same way by the
// page as they type and by the server, which alone decides. A name is shown to the teacher beside the student's
// runs, so it must read as what it is: trimmed, 1 to 60 characters, no control characters and no characters that
// reorder or hide text (bidirectional overrides, zero-width spaces), and unique in the class after Unicode
// normalisation and case folding ("Ana", "ANA" and "Ａｎａ" are one name).

export const MAX_NAME_CHARS = 60;

export type NameProblem =
  | { reason: 'empty' }
  | { reason: 'too-long'; chars: number }
  | { reason: 'control-character'; codePoint: string; position: number };

// Cc (C0, DEL, C1), the line and paragraph separators, and the format characters that change how text around them
// reads: bidirectional marks, embeddings, overrides and isolates, zero-width spaces, the word joiner, invisible
// operators, the byte-order mark and the interlinear annotation marks. The zero-width joiner and non-joiner stay:
// several scripts (Persian, the Indic ones) need them inside words.
const REFUSED = /[\p{Cc}\u2028\u2029\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\p{Cs}/u;

// The name as it is kept and shown: trimmed of white space at both ends (Unicode's, not only ASCII's).
export function trimName(raw: string): string {
  return raw.trim();
}

// Why `raw` cannot be a name, or null when it can. Characters are code points, as a person counts them in most
// scripts; a name is refused before anything else is done with it when it is far too long.
export function nameProblem(raw: string): NameProblem | null {
  if (raw.length > MAX_NAME_CHARS * 8) return { reason: 'too-long', chars: [...raw].length };
  const name = trimName(raw);
  if (name === '') return { reason: 'empty' };
  const chars = [...name];
  const at = chars.findIndex((c) => REFUSED.test(c));
  if (at >= 0) {
    const code = chars[at]?.codePointAt(0) ?? 0;
    return { reason: 'control-character', codePoint: `U+${code.toString(16).toUpperCase().padStart(4, '0')}`, position: at + 1 };
  }
  if (chars.length > MAX_NAME_CHARS) return { reason: 'too-long', chars: chars.length };
  return null;
}

// Two names are the same name when their keys are equal: compatibility-normalised (NFKC: full-width letters, ligatures
// and composed accents read as their plain forms), case-folded (upper then lower case, so that "ß" and "SS" meet), and
// with every run of white space read as one space.
export function nameKey(name: string): string {
  return trimName(name).normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC').replace(/\s+/gu, ' ');
}

// The problem in English, for the server's refusal; the join page says it in the reader's language.
export function describeNameProblem(problem: NameProblem): string {
  switch (problem.reason) {
    case 'empty':
      return 'a name is needed: 1 to 60 characters';
    case 'too-long':
      return `the name has ${problem.chars} characters; at most ${MAX_NAME_CHARS}`;
    case 'control-character':
      return `character ${problem.position} is ${problem.codePoint}, a control or invisible character, which a name may not hold`;
  }
}
