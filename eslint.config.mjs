// ESLint for the browser scripts (docs/development.md, "Scripts"): eslint:recommended
// with the globals each kind of script may use. No build step: the files are served as written.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "offline_assets/", "staticfiles/", "artifacts/", ".venv/"] },
  js.configs.recommended,
  {
    // The pages' scripts: plain scripts (no modules), run in the browser; engine.js also
    // runs as a Web Worker (importScripts) and under Node's vm (tests/offline).
    files: ["league/static/league/*.js"],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: "script",
      globals: {
        ...globals.browser,
        ...globals.worker,
        // The scripts' own, set on window by words.js, engine.js and queue/main.js.
        TenbouWords: "readonly",
        TenbouEngine: "readonly",
        TenbouQueue: "readonly",
      },
    },
    // The scripts keep ES5's `catch (e)`, which old phones parse, where the error is not needed.
    rules: { "no-unused-vars": ["error", { caughtErrors: "none" }] },
  },
  {
    // The offline queue (issue 30): small ES modules, loaded by <script type="module">, no build step.
    files: ["league/static/league/queue/*.js"],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: "module",
      globals: { ...globals.browser, TenbouQueue: "readonly" },
    },
    rules: { "no-unused-vars": ["error", { caughtErrors: "none" }] },
  },
  {
    // The service worker (its /* global */ line names ASSETS and VERSION, which
    // league/views/webapp.py writes above it).
    files: ["league/static/league/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ["tests/offline/*.cjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "commonjs", globals: { ...globals.node } },
  },
];
