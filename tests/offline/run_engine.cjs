// The phone's engine under Node: Pyodide + the server's Python (engine.zip),
// and engine.js's own TenbouEngine.apply, playing games step by step as the
// phone does (tests/offline/games.py: play_steps is the Python twin).
//   node run_engine.cjs PYODIDE_DIR ENGINE_ZIP ENGINE_JS GAMES_JSONL OUT_JSONL
// GAMES_JSONL: one {"id", "start", "steps": [[number|null, fields], ...]} per line.
// OUT_JSONL: one {"id", "results": [answer, ...]} per line, in the same order.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const [dir, zip, engineJs, gamesFile, outFile] = process.argv.slice(2);
vm.runInThisContext(fs.readFileSync(engineJs, "utf8"), { filename: engineJs });
const { loadPyodide } = require(path.resolve(dir, "pyodide.js"));

(async () => {
  const started = Date.now();
  const py = await loadPyodide({ indexURL: path.resolve(dir) + "/", stdout: () => {}, stderr: (t) => console.error(t) });
  py.unpackArchive(new Uint8Array(fs.readFileSync(zip)), "zip", { extractDir: "/engine" });
  py.runPython("import sys; sys.path.insert(0, '/engine')\nfrom league.entry.phone import price_json");
  const priceJson = py.globals.get("price_json");
  const loaded = Date.now();
  const out = [];
  let prices = 0;
  for (const line of fs.readFileSync(gamesFile, "utf8").split("\n")) {
    if (!line) continue;
    const g = JSON.parse(line);
    let state = g.start;
    const results = [];
    for (const [number, fields] of g.steps) {
      const answer = JSON.parse(priceJson(JSON.stringify(state), JSON.stringify(fields), number));
      prices += 1;
      results.push(answer);
      if (answer.ok) state = globalThis.TenbouEngine.apply(state, answer);
      else if (answer.errors.some((e) => e.code === "game_over")) break;
    }
    out.push(JSON.stringify({ id: g.id, results: results }));
  }
  fs.writeFileSync(outFile, out.join("\n") + "\n");
  console.error(`pyodide loaded in ${loaded - started} ms; ${prices} prices in ${Date.now() - loaded} ms`);
})().catch((err) => { console.error(err && err.stack ? err.stack.slice(0, 2000) : err); process.exit(1); });
