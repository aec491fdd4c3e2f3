// The kernel editor's CodeMirror configuration: C++ (CUDA is C++ with a few words of its own, coloured here as the
// app's code blocks colour them), line numbers, undo, bracket matching, lint markers in a gutter (no completion and
// no search panel: a kernel is a screenful, and they would double the editor's code), Tab to indent (Escape then Tab leaves the
// editor, CodeMirror's rule for keyboard users), and a theme whose colours are the app's CSS tokens, so that it
// follows the light and the dark theme with the rest of the page. The `dark` flag only picks CodeMirror's own
// defaults (cursor, selection) for the other background.
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting, syntaxTree } from '@codemirror/language';
import { lintGutter, lintKeymap } from '@codemirror/lint';
import { Annotation } from '@codemirror/state';
import type { Extension } from '@codemirror/state';
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  MatchDecorator,
  ViewPlugin,
} from '@codemirror/view';
import type { DecorationSet, ViewUpdate } from '@codemirror/view';

import { CODE_TAGS, CUDA_WORDS } from '../code/code-style.ts';

// The colours of the code blocks (code-style.ts: one mapping of the grammar's tags for both views).
const KIND_STYLE: Record<(typeof CODE_TAGS)[number]['kind'], { color: string; fontStyle?: string; fontWeight?: string }> = {
  comment: { color: 'var(--code-comment)', fontStyle: 'italic' },
  string: { color: 'var(--code-string)' },
  preprocessor: { color: 'var(--code-preprocessor)' },
  number: { color: 'var(--code-number)' },
  keyword: { color: 'var(--code-keyword)', fontWeight: '600' },
  type: { color: 'var(--code-type)' },
};
const codeHighlight = HighlightStyle.define(CODE_TAGS.map(({ kind, tags }) => ({ tag: tags, ...KIND_STYLE[kind] })));
const cudaMark = Decoration.mark({ class: 'cm-cuda' });
const cudaWords = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    private readonly matcher = new MatchDecorator({
      regexp: CUDA_WORDS,
      decoration: (_match, view, pos) => (/Comment|String/.test(syntaxTree(view.state).resolveInner(pos, 1).name) ? null : cudaMark),
    });
    constructor(view: EditorView) {
      this.decorations = this.matcher.createDeco(view);
    }
    update(update: ViewUpdate): void {
      this.decorations = this.matcher.updateDeco(update, this.decorations);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

export function editorTheme(dark: boolean): Extension {
  return EditorView.theme(
    {
      '&': { color: 'var(--text)', backgroundColor: 'var(--code-bg)', border: '1px solid var(--border)', borderRadius: 'var(--radius)', fontSize: '0.86rem' },
      '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '2px' },
      '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5', overflow: 'auto' },
      '.cm-content': { caretColor: 'var(--text)' },
      '.cm-content, .cm-gutter': { minHeight: '14rem' },
      '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
      '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--text-muted)', borderRight: '1px solid var(--border)' },
      '.cm-activeLineGutter': { backgroundColor: 'var(--accent-soft)', color: 'var(--text)' },
      '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent-soft) 45%, transparent)' },
      '.cm-cuda': { color: 'var(--code-cuda)', fontWeight: '600' },
      '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--text)', border: '1px solid var(--border)' },
      '.cm-diagnosticText': { whiteSpace: 'pre-wrap' },
      '.cm-panels': { backgroundColor: 'var(--surface-2)', color: 'var(--text)' },
    },
    { dark },
  );
}

// Marks a change of the whole text from outside (a draft or a kernel loaded): not the user's edit, not echoed back.
export const loadedText = Annotation.define<boolean>();

export interface EditorOptions {
  label: string;
  readOnly: boolean;
  // Fill the height of the element it is in (the workbench's editor), rather than grow with the text up to 36rem.
  fill: boolean;
  // Called with the whole text after each edit by the user.
  onEdit: (text: string) => void;
}

// The C++ grammar, fetched on its own: with it in the editor's chunk the two would pass the bundle's 400 kB limit per
// chunk. The text shows plain until it lands, a moment after the editor.
export async function cppLanguage(): Promise<Extension> {
  const { cpp } = await import('@codemirror/lang-cpp');
  return cpp();
}

export function editorExtensions(options: EditorOptions): Extension[] {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap, indentWithTab]),
    syntaxHighlighting(codeHighlight),
    cudaWords,
    lintGutter(),
    EditorView.theme({ '&': options.fill ? { height: '100%' } : { maxHeight: '36rem' } }),
    // A line longer than the editor is wide goes on under itself, indented as it began, never cut at the edge: the
    // starters' comments run past 110 columns, and the editor beside the result is half a window wide.
    EditorView.lineWrapping,
    // In the tab order even read-only, so that a keyboard reaches the source and scrolls it.
    EditorView.contentAttributes.of({ 'aria-label': options.label, tabindex: '0' }),
    EditorView.editable.of(!options.readOnly),
    EditorView.updateListener.of((update) => {
      if (update.docChanged && update.transactions.some((tr) => tr.docChanged && !tr.annotation(loadedText))) options.onEdit(update.state.doc.toString());
    }),
  ];
}
