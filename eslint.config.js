// ESLint in this repo enforces the architecture's import boundaries and nothing else:
// no stylistic or "recommended" rule sets, only `boundaries/dependencies` and `import-x/no-cycle` (no import circle).
//
// Layers, outermost first:
//   routes (server/http, server/trpc) -> front doors (server/pipeline, server/workflows/<door>, server/people, server/audit)
//   -> engine (server/engine) -> store -> db
// Beside them: server/review (inline review of any door's outputs, which each door plugs into) sits under the front
// doors it serves; server/lib (small tools with no knowledge of the product) sits at the bottom, above db/ only.
//
// Every relative import is resolved to a real file (extensionless, or with .ts/.tsx) and the
// policies below match the *resolved* path, so `../engine/engine`, `../engine/engine.ts` and
// `typeof import("../engine/engine")` are all checked the same way.
import tsParser from "@typescript-eslint/parser";
import boundaries from "eslint-plugin-boundaries";
import importX, { createNodeResolver } from "eslint-plugin-import-x";

/** File categories: a file gets every category whose pattern matches its repo-relative path. */
const CATEGORIES = [
  // Every resolved project file is "known"; an import that resolves to nothing stays unknown (policy 0).
  { category: "project", pattern: "**" },
  { category: "db", pattern: "db/**" },
  { category: "server", pattern: "server/**" },
  { category: "web", pattern: "web/**" },
  { category: "web-src", pattern: "web/src/**" },
  // server
  { category: "engine", pattern: "server/engine/**" },
  // Inline review: every door's outputs, read and edited through the adapter each door registers (server/review/doors.ts).
  { category: "review", pattern: "server/review/**" },
  // Small tools that know nothing of the product: JSON, paging, the outbound-address policy, errors of the database.
  { category: "lib", pattern: "server/lib/**" },
  // People (accounts, sessions, tokens) and the audit trail are doors of their own, beside the engine's front doors.
  // So are the decisions and the notifications (webhook subscriptions and email).
  // What every kind of run shares about forks (who may fork, the API's shapes) is server/forks, beside them.
  // The one turn vocabulary every run told as a conversation speaks is server/conversation, beside them too.
  { category: "front-door", pattern: ["server/conversation/**", "server/decisions/**", "server/flows/**", "server/forks/**", "server/notifications/**", "server/pipeline/**", "server/workflows/**", "server/people/**", "server/audit/**"] },
  { category: "pipeline", pattern: "server/pipeline/**" },
  { category: "flows-door", pattern: "server/flows/**" },
  { category: "notifications", pattern: "server/notifications/**" },
  // The workflow front doors, one folder each; server/workflows/runtime (the node runtimes) and the files directly in
  // server/workflows (the compiler, the store of the workflow tables, the executors' skeleton, and the door that
  // composes both formats) are what they share. A new front door is added to this list.
  { category: "workflow", pattern: "server/workflows/{yaml,steps}/**", capture: ["workflow"] },
  { category: "routes", pattern: ["server/http/**", "server/trpc/**"] },
  { category: "server-entry", pattern: ["server/app.ts", "server/main.ts"] },
  { category: "engine-store", pattern: ["server/engine/store*", "server/engine/store/**"] },
  { category: "store", pattern: ["server/engine/store*", "server/*/store*", "server/**/store/**"] },
  { category: "app-router", pattern: "server/trpc/router.ts" },
  // test-only code
  { category: "testing", pattern: ["server/testing/**", "web/src/testing/**"] },
  {
    category: "test-code",
    pattern: ["**/*.test.ts", "**/*.test.tsx", "server/testing/**", "web/src/testing/**", "e2e/**", "bench/**"],
  },
  // web
  { category: "feature", pattern: "web/src/features/*/**", capture: ["feature"] },
  { category: "web-shared", pattern: ["web/src/components/**", "web/src/lib/**"] },
  { category: "web-app", pattern: "web/src/app/**" },
];

// Micromatch pattern for an import source that is not a style/image/font asset
// (`*(@(..|.|*)/)` walks any number of `./`, `../` and folder segments).
const NOT_AN_ASSET = "!*(@(..|.|*)/)*.@(css|scss|sass|less|svg|png|jpg|jpeg|gif|webp|avif|ico|woff|woff2)";

const to = (categories) => ({ to: { file: { categories } } });
const from = (categories) => ({ file: { categories } });

/**
 * Tests may reach past a layer to set up what they test (a real database, the assembled app); production code may not.
 * Every policy only disallows (the default is "allow"). When one import breaks several
 * policies, the message of the last matching one is shown.
 */
const POLICIES = [
  {
    // 0. A code import the resolver cannot find would silently escape every rule below.
    //    tsc already fails on a missing module, so on a tsc-clean tree this only fires when
    //    ESLint's resolver disagrees with TypeScript. Asset imports (./x.css) are Vite's business.
    disallow: {
      to: { file: { isUnknown: true }, module: { origin: "local" } },
      dependency: { source: NOT_AN_ASSET },
    },
    message:
      "[boundaries 0] this relative import does not resolve to a file, so the boundary rules cannot check it: fix the path (extensionless, .ts or .tsx), or extend the import/resolver settings in eslint.config.js for the new kind of file.",
  },
  {
    from: from({ allOf: ["db"], noneOf: ["test-code"] }),
    disallow: to({ anyOf: ["server", "web"] }),
    message:
      "[boundaries 1] db/ is the bottom layer and imports nothing from server/ or web/: move what db/ needs into db/, or have the caller pass it in.",
  },
  {
    from: from({ allOf: ["engine"], noneOf: ["test-code"] }),
    disallow: to({ anyOf: ["front-door", "routes", "server-entry"] }),
    message:
      "[boundaries 2] server/engine imports nothing from front doors (server/pipeline, server/workflows), routes (server/http, server/trpc), server/app.ts or server/main.ts: move the shared code down into server/engine, or have the caller pass it in (parameter, callback).",
  },
  {
    from: from("front-door"),
    disallow: to({ anyOf: ["routes", "server-entry"] }),
    message:
      "[boundaries 3] front doors (server/pipeline, server/workflows/*) import nothing from routes (server/http, server/trpc), server/app.ts or server/main.ts: move the shared code into the front door or the engine, and let the route call the front door.",
  },
  {
    from: from("front-door"),
    disallow: to("engine-store"),
    message:
      "[boundaries 3] front doors (server/pipeline, server/workflows/*) do not import the engine's store (server/engine/store*): go through the engine's API (server/engine/engine), adding a function there if needed.",
  },
  {
    from: from("pipeline"),
    disallow: to("workflow"),
    message:
      "[boundaries 3] a front door does not import another front door (server/pipeline -> server/workflows): move the shared code down into server/engine (or a neutral server module), or compose the two in a route.",
  },
  {
    from: from("workflow"),
    disallow: to("pipeline"),
    message:
      "[boundaries 3] a front door does not import another front door (server/workflows -> server/pipeline): move the shared code down into server/engine (or a neutral server module), or compose the two in a route.",
  },
  {
    from: from("workflow"),
    disallow: {
      to: { file: { categories: "workflow", captured: { workflow: "!{{ from.file.captured.workflow }}" } } },
    },
    message:
      "[boundaries 3] a front door does not import another front door (server/workflows/{{ from.file.captured.workflow }} -> server/workflows/{{ to.file.captured.workflow }}): move the shared code down into server/engine (or a neutral server module), or compose the two in a route.",
  },
  {
    from: from({ allOf: ["review"], noneOf: ["test-code"] }),
    disallow: to({ anyOf: ["pipeline", "workflow", "flows-door", "notifications", "routes", "server-entry"] }),
    message:
      "[boundaries 3] server/review serves every front door and imports none of them (nor routes, server/app.ts, server/main.ts): a door's own rule (its artifacts' fields, its agents' claims) goes in the ReviewDoor it registers (server/review/doors.ts).",
  },
  {
    from: from({ allOf: ["lib"], noneOf: ["test-code"] }),
    disallow: to({ allOf: ["server"], noneOf: ["lib"] }),
    message:
      "[boundaries 2] server/lib is the bottom of the server and imports nothing from the rest of server/ (db/ is below it): move what it needs into server/lib, or move the code up to the room whose idea it is (server/engine, a front door).",
  },
  {
    from: from({ allOf: ["routes"], noneOf: ["test-code"] }),
    disallow: to({ anyOf: ["db", "store"] }),
    message:
      "[boundaries 4] routes (server/http, server/trpc) import nothing from db/ or a store (server/**/store*): call a front door (server/pipeline, server/workflows/*) or the engine's API instead.",
  },
  {
    from: from({ noneOf: ["test-code"] }),
    disallow: to("testing"),
    message:
      "[boundaries 5] production code imports nothing from server/testing or web/src/testing (test-only helpers): move what production needs into a production module, or use the helper only from *.test.ts(x) files.",
  },
  {
    from: from("web-src"),
    disallow: to({ allOf: ["server"], noneOf: ["app-router"] }),
    message:
      "[boundaries 6] web/src imports nothing from server/ except the AppRouter type from server/trpc/router: derive the type from AppRouter (inferRouterOutputs / inferRouterInputs, e.g. in web/src/lib/trpc.ts), or declare a web-side type.",
  },
  {
    from: from("web-src"),
    disallow: { ...to("app-router"), dependency: { kind: "value" } },
    message:
      '[boundaries 6] web/src may import server/trpc/router only as a type, so no server code reaches the bundle: write `import type { AppRouter } from ".../server/trpc/router"`.',
  },
  {
    from: from("feature"),
    disallow: { to: { file: { categories: "feature", captured: { feature: "!{{ from.file.captured.feature }}" } } } },
    message:
      "[boundaries 7] features do not import each other (features/{{ from.file.captured.feature }} -> features/{{ to.file.captured.feature }}): move shared code to web/src/components or web/src/lib, or compose the features in web/src/app.",
  },
  {
    from: from("feature"),
    disallow: to("web-app"),
    message:
      "[boundaries 7] web/src/features do not import web/src/app (the app composes features, not the other way round): move the shared code to web/src/components or web/src/lib, or have the app pass it in as props.",
  },
  {
    from: from("web-shared"),
    disallow: to({ anyOf: ["feature", "web-app"] }),
    message:
      "[boundaries 7] web/src/components and web/src/lib import neither web/src/features nor web/src/app: move the code down into components/lib, or have the feature or the app pass it in as props.",
  },
];

export default [
  {
    ignores: ["**/dist/**", "**/node_modules/**", "**/test-results/**", "**/playwright-report/**", "**/.data/**", "*.{js,mjs,cjs}"],
  },
  {
    files: ["server/**/*.{ts,tsx}", "web/src/**/*.{ts,tsx}", "db/**/*.{ts,tsx}", "e2e/**/*.{ts,tsx}", "bench/**/*.{ts,tsx}"],
    languageOptions: { parser: tsParser, ecmaVersion: "latest", sourceType: "module" },
    plugins: { boundaries, "import-x": importX },
    settings: {
      "import/resolver": { node: { extensions: [".ts", ".tsx", ".js", ".json"] } },
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".json"] })],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "boundaries/root-path": import.meta.dirname,
      "boundaries/files": CATEGORIES,
      "boundaries/legacy-templates": false,
      "boundaries/legacy-warnings": false,
      "boundaries/dependency-nodes": ["import", "export", "dynamic-import"],
      "boundaries/additional-dependency-nodes": [
        // type T = typeof import("../x")
        { selector: "TSImportType > Literal.source", kind: "type", name: "import-type" },
      ],
    },
    rules: {
      "boundaries/dependencies": ["error", { default: "allow", checkUnknownLocals: true, policies: POLICIES }],
      // Two files that import each other (directly or round a longer circle) are one idea split badly, or two ideas
      // tangled: move what both need into the lower one, or into a file of its own.
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
];
