/**
 * The YAML editor: CodeMirror 6 with YAML highlighting, line numbers, undo history and the server's problems and
 * warnings drawn at their lines (an underline in the text, a marker in the gutter, the message on hover). Loaded on
 * demand (LazyYamlEditor), so CodeMirror stays out of the app's first load. Controlled: `value` in, `onChange` out.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { yaml } from "@codemirror/lang-yaml";
import { HighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { type Diagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";
import { EditorSelection, EditorState, type Text } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { useEffect, useRef } from "react";
import type { WorkflowIssue } from "../../../lib/trpc";

/** Where the editor should put the cursor (and the focus); a new `seq` asks again for the same place. */
export interface FocusRequest {
  line: number;
  column: number;
  seq: number;
}

export interface YamlEditorProps {
  value: string;
  onChange?(value: string): void;
  readOnly?: boolean;
  /** The id of the element naming the editor. */
  labelledBy: string;
  describedBy?: string;
  problems?: readonly WorkflowIssue[];
  warnings?: readonly WorkflowIssue[];
  focusRequest?: FocusRequest | null;
}

/** The offset of a 1-based line and column, kept inside the text. */
export function offsetOf(doc: Text, line: number, column: number): number {
  const at = doc.line(Math.min(Math.max(line, 1), doc.lines));
  return Math.min(at.from + Math.max(column - 1, 0), at.to);
}

/** A located issue as a CodeMirror diagnostic: from its column to the end of the value that starts there (one character at least). */
export function toDiagnostic(doc: Text, issue: WorkflowIssue, severity: Diagnostic["severity"]): Diagnostic {
  const from = offsetOf(doc, issue.line, issue.column);
  const rest = doc.sliceString(from, doc.lineAt(from).to);
  const word = (/^[^\s,[\]{}]+/.exec(rest) ?? /^\S/.exec(rest))?.[0].length ?? 0;
  return { from, to: from + word, severity, message: issue.message, ...(issue.path ? { source: issue.path } : {}) };
}

const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: "var(--yaml-key)", fontWeight: "600" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--yaml-string)" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--yaml-atom)" },
  { tag: [tags.comment, tags.lineComment], color: "var(--muted)", fontStyle: "italic" },
  { tag: [tags.punctuation, tags.separator, tags.squareBracket, tags.brace], color: "var(--muted)" },
  { tag: [tags.meta, tags.labelName, tags.typeName, tags.keyword], color: "var(--yaml-meta)" },
  { tag: tags.content, color: "var(--text)" },
]);

const theme = EditorView.theme({
  "&": { fontSize: "13px", backgroundColor: "var(--surface)", color: "var(--text)" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.6" },
  ".cm-content": { caretColor: "var(--text)", padding: "8px 0" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
  ".cm-gutters": { backgroundColor: "var(--surface-2)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--accent-soft) 55%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--accent-soft)", color: "var(--text-2)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground": {
    backgroundColor: "color-mix(in srgb, var(--accent) 25%, transparent)",
  },
  ".cm-tooltip": { backgroundColor: "var(--surface)", color: "var(--text)", border: "1px solid var(--border-strong)", borderRadius: "6px" },
  ".cm-diagnostic": { fontFamily: "var(--font)", fontSize: "13px" },
});

const none: readonly WorkflowIssue[] = [];

export default function YamlEditor({ value, onChange, readOnly = false, labelledBy, describedBy, problems = none, warnings = none, focusRequest }: YamlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  // The editor is made once; what changes later reaches it as transactions below.
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          lintGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          readOnly ? [] : [highlightActiveLine(), highlightActiveLineGutter()],
          yaml(),
          syntaxHighlighting(highlight),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorState.tabSize.of(2),
          EditorState.readOnly.of(readOnly),
          EditorView.contentAttributes.of({
            "aria-labelledby": labelledBy,
            ...(describedBy ? { "aria-describedby": describedBy } : {}),
            ...(readOnly ? { "aria-readonly": "true" } : {}),
          }),
          theme,
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current?.(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    // The text scrolls inside its box (read-only, or long lines on a phone): the box takes the keyboard focus, where
    // the arrow keys scroll it, and is a region under the editor's label.
    editor.scrollDOM.tabIndex = 0;
    editor.scrollDOM.setAttribute("role", "region");
    if (labelledBy) editor.scrollDOM.setAttribute("aria-labelledby", labelledBy);
    return () => {
      editor.destroy();
      view.current = null;
    };
    // `value` is left out on purpose: the text a person types is already in the editor, and a value set from outside arrives below.
  }, [readOnly, labelledBy, describedBy]);

  // A value set from outside (a saved version, a reset) replaces the text.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const { doc } = editor.state;
    const diagnostics = [...problems.map((issue) => toDiagnostic(doc, issue, "error")), ...warnings.map((issue) => toDiagnostic(doc, issue, "warning"))];
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [problems, warnings]);

  useEffect(() => {
    const editor = view.current;
    if (!editor || !focusRequest) return;
    const at = offsetOf(editor.state.doc, focusRequest.line, focusRequest.column);
    editor.dispatch({ selection: EditorSelection.cursor(at), effects: EditorView.scrollIntoView(at, { y: "center" }) });
    editor.focus();
  }, [focusRequest]);

  return <div ref={host} className={`yaml-editor${readOnly ? " is-readonly" : ""}`} />;
}
