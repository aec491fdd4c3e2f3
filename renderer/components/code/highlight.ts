// The read-only code blocks' colours, from the same grammar as the editor's (@lezer/cpp, tagged as code-style.ts
// says): the source is parsed once, each character gets the kind of the innermost highlighted node over it, CUDA's
// words are marked where the grammar left a plain name, and the lines come back as runs of one kind. The UI renders
// the tokens as text in spans, so no source is ever parsed as HTML (nothing for the page's CSP to allow).
import { parser } from '@lezer/cpp';
import { highlightTree, tagHighlighter } from '@lezer/highlight';

import { CODE_TAGS, CUDA_WORDS } from './code-style.ts';
import type { TokenKind } from './code-style.ts';

export type { TokenKind } from './code-style.ts';

export interface Token {
  kind: TokenKind;
  text: string;
}

const highlighter = tagHighlighter(CODE_TAGS.flatMap(({ kind, tags }) => tags.map((tag) => ({ tag, class: kind }))));

export function highlightLines(source: string): Token[][] {
  const text = source.replace(/\r\n?/g, '\n');
  const kinds: TokenKind[] = new Array<TokenKind>(text.length).fill('plain');
  highlightTree(parser.parse(text), highlighter, (from, to, classes) => {
    const kind = (classes.split(' ')[0] ?? 'plain') as TokenKind;
    kinds.fill(kind, from, to);
  });
  for (const m of text.matchAll(CUDA_WORDS)) {
    const at = m.index;
    if (kinds[at] !== 'comment' && kinds[at] !== 'string' && kinds[at] !== 'preprocessor') kinds.fill('cuda', at, at + m[0].length);
  }
  const lines: Token[][] = [];
  let start = 0;
  for (const line of text.split('\n')) {
    const tokens: Token[] = [];
    for (let i = 0; i < line.length; i++) {
      const kind = kinds[start + i] ?? 'plain';
      const last = tokens[tokens.length - 1];
      if (last && last.kind === kind) last.text += line[i];
      else tokens.push({ kind, text: line[i] ?? '' });
    }
    lines.push(tokens);
    start += line.length + 1;
  }
  return lines;
}
