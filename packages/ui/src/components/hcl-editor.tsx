import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Annotation, EditorState, type Extension, RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { hclLanguage } from './hcl-language.js';

/** Token colours: variables of styles.css (light and dark), which reach into the editor's shadow root. */
const highlighting = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--tok-keyword)', fontWeight: '600' },
  { tag: tags.string, color: 'var(--tok-string)' },
  { tag: tags.comment, color: 'var(--tok-comment)', fontStyle: 'italic' },
  { tag: [tags.number, tags.atom], color: 'var(--tok-number)' },
  { tag: tags.propertyName, color: 'var(--tok-property)' },
]);

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--bg)', color: 'var(--text)', minHeight: '12rem' },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '2px' },
  '.cm-content': {
    fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
    caretColor: 'var(--text)',
  },
  '.cm-gutters': { backgroundColor: 'var(--surface)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLineGutter': { backgroundColor: 'transparent' },
  '.cm-error-line': { backgroundColor: 'var(--danger-bg)', boxShadow: 'inset 3px 0 0 var(--danger)' },
  '&.cm-focused .cm-matchingBracket': { backgroundColor: 'var(--code-bg)', outline: '1px solid var(--border)' },
});

const setErrorLine = StateEffect.define<number | undefined>();

/** Marks a change that came from `value` (a load), which is not reported back through `onChange`. */
const fromValue = Annotation.define<boolean>();

/** The line the server's parse error names, marked until the text changes or another error comes. */
const errorLine = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const e of tr.effects) {
      if (!e.is(setErrorLine)) continue;
      if (e.value === undefined || e.value > tr.state.doc.lines) return Decoration.none;
      const line = tr.state.doc.line(e.value);
      const builder = new RangeSetBuilder<Decoration>();
      builder.add(line.from, line.from, Decoration.line({ class: 'cm-error-line' }));
      return builder.finish();
    }
    return tr.docChanged ? Decoration.none : marks.map(tr.changes);
  },
  provide: (f) => EditorView.decorations.from(f),
});

/**
 * Typing over a selection is done by the editor, not by the browser. Chromium's own replacement of a
 * selection across lines joins them and keeps the look of the highlighted text by writing a `style`
 * attribute on the line, which the page's `style-src 'self'` refuses (a console error; CodeMirror
 * then redraws the line from its state anyway). Only plain typing is taken over: a composition (an
 * input method) stays the browser's.
 */
const typeOverSelection = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (event.inputType !== 'insertText' || !event.data || view.composing) return false;
    if (view.state.selection.ranges.every((r) => r.empty)) return false;
    event.preventDefault();
    view.dispatch(view.state.replaceSelection(event.data), { scrollIntoView: true, userEvent: 'input.type' });
    return true;
  },
});

/**
 * A CodeMirror 6 editor for HCL, named `label`, with line numbers and highlighting. It lives in a
 * shadow root: there CodeMirror's styles go into a constructed stylesheet, which the page's
 * `style-src 'self'` allows (on the document itself it would add a <style> element, which it refuses).
 * Tab is left to the browser (moving the focus on), so keyboard users are never trapped in the editor.
 */
export function HclEditor(p: {
  label: string;
  value: string;
  onChange(value: string): void;
  /** 1-based; marked as the error's line. */
  errorLine?: number;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  const onChange = useRef(p.onChange);
  onChange.current = p.onChange;
  useLayoutEffect(() => {
    const el = host.current;
    if (!el) return;
    const shadow = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
    const parent = document.createElement('div');
    shadow.replaceChildren(parent);
    const extensions: Extension[] = [
      lineNumbers(),
      history(),
      bracketMatching(),
      hclLanguage,
      syntaxHighlighting(highlighting),
      theme,
      errorLine,
      typeOverSelection,
      keymap.of([...defaultKeymap, ...historyKeymap]),
      EditorView.lineWrapping,
      // A label outside the shadow root cannot be pointed at by id: the editor carries its name itself.
      EditorView.contentAttributes.of({ 'aria-label': p.label }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged && !u.transactions.some((t) => t.annotation(fromValue)))
          onChange.current(u.state.doc.toString());
      }),
    ];
    view.current = new EditorView({ root: shadow, parent, state: EditorState.create({ doc: p.value, extensions }) });
    return () => view.current?.destroy();
  }, []);
  useLayoutEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== p.value) {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: p.value }, annotations: fromValue.of(true) });
    }
  }, [p.value]);
  useLayoutEffect(() => {
    view.current?.dispatch({ effects: setErrorLine.of(p.errorLine) });
  }, [p.errorLine]);
  return (
    <div class="field">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a click on the label focuses the editor, as a <label> would */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: keyboard users reach the editor itself with Tab */}
      <span class="label" onClick={() => view.current?.focus()}>
        {p.label}
      </span>
      <div class="hcl-editor" ref={host} />
    </div>
  );
}
