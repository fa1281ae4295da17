/** The YAML editor, with CodeMirror loaded the first time one is shown; until then the text stands in its place. */
import { lazy, Suspense } from "react";
import type { YamlEditorProps } from "./YamlEditor";

const YamlEditor = lazy(() => import("./YamlEditor"));

export function LazyYamlEditor(props: YamlEditorProps) {
  return (
    <Suspense
      fallback={
        <pre className="yaml-editor yaml-editor-loading" aria-busy="true">
          {props.value}
        </pre>
      }
    >
      <YamlEditor {...props} />
    </Suspense>
  );
}
