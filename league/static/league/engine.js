/* The hand engine on the phone: the server's own Python (scoring and
   league/entry) in Pyodide, so a hand entered without network is priced
   exactly as the server will price it. Contract: OFFLINE_CONTRACT.md.

   TenbouEngine.available()              -> Promise<bool>
   TenbouEngine.ready()                  -> Promise<void>, loads once, lazily
   TenbouEngine.fieldsOf(form)           -> {name: string | string[]}
   TenbouEngine.price(game, fields, n?)  -> Promise<{ok: true, hand, payments, lines, counted, summary,
                                              before, after, settlement, later, state, digest}
                                             | {ok: false, errors: [{field, message, code}]}>
   TenbouEngine.apply(game, result)      -> the game after the priced hand is saved

   `game` is /staff/games/<pk>/offline.json. The worker installs the engine's words in
   the page's language (its address: TenbouWordsData.engine_words), so the lines and
   errors read as the server's preview in that language. Pyodide runs in a Web Worker, this
   same file started as one (/staff/offline/engine.js): loading it takes seconds of
   CPU, which on the page's own thread froze the page while the network dropped.
   The page keeps fieldsOf and apply (plain JavaScript); each price is a message
   to the worker and its answer. Under Node (tests/offline/run_engine.cjs) the
   file only defines TenbouEngine. */
(function (root) {
  "use strict";

  var BASE = "/staff/offline/";
  var info = null;
  var loading = null;
  var IN_WORKER = typeof document === "undefined" && typeof importScripts === "function";

  function engineInfo() {
    if (!info) {
      info = fetch(BASE + "engine.json", { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) throw new Error("offline entry is unavailable (engine.json: HTTP " + r.status + ")");
        return r.json();
      });
      info.catch(function () { info = null; });  // a failed look is asked again next time
    }
    return info;
  }

  function loadScript(src) {
    return new Promise(function (resolve) { importScripts(src); resolve(); });  // in the worker only
  }

  // The engine's words in the page's language (league/engine_catalogue.py): its address
  // is in the page's words (/words/<language>.<version>.js); the worker installs them.
  function wordsUrl() {
    return (root.TenbouWordsData || {}).engine_words || null;
  }

  // In the worker: Pyodide and the server's Python, loaded once, speaking `words`' language.
  function bootHere(words) {
    return engineInfo().then(function (meta) {
      if (!meta.available) throw new Error(meta.notice || "offline entry is unavailable");
      var runtime = BASE + "pyodide/";
      return loadScript(runtime + "pyodide.js").then(function () {
        return Promise.all([
          root.loadPyodide({ indexURL: runtime, fullStdLib: false }),
          fetch(BASE + "engine.zip", { credentials: "same-origin" }).then(function (r) {
            if (!r.ok) throw new Error("could not load engine.zip: HTTP " + r.status);
            return r.arrayBuffer();
          }),
          words ? fetch(words, { credentials: "same-origin" }).then(function (r) {
            if (!r.ok) throw new Error("could not load the engine's words: HTTP " + r.status);
            return r.text();
          }) : null,
        ]);
      });
    }).then(function (both) {
      var py = both[0];
      py.unpackArchive(both[1], "zip", { extractDir: "/engine" });
      py.runPython("import sys; sys.path.insert(0, '/engine')\nfrom league.entry.phone import price_json, install_words");
      if (both[2] !== null) py.globals.get("install_words")(both[2]);
      return py.globals.get("price_json");
    });
  }

  // On the page: the worker, started once; a price is a message and its answer.
  function boot() {
    return engineInfo().then(function (meta) {
      if (!meta.available) throw new Error(meta.notice || "offline entry is unavailable");
      var worker = new Worker(BASE + "engine.js"), asked = 0, waiting = {};
      function ask(message) {
        return new Promise(function (resolve, reject) {
          message.id = ++asked;
          waiting[message.id] = {resolve: resolve, reject: reject};
          worker.postMessage(message);
        });
      }
      worker.onmessage = function (e) {
        var w = waiting[e.data.id];
        delete waiting[e.data.id];
        if (w && e.data.ok) w.resolve(e.data.answer);
        else if (w) w.reject(new Error(e.data.error));
      };
      worker.onerror = function (e) {
        Object.keys(waiting).forEach(function (id) { waiting[id].reject(new Error(e.message || "engine failed")); });
        waiting = {};
      };
      return ask({op: "ready", words: wordsUrl()}).then(function () {
        return function (game, fields, n) { return ask({op: "price", game: game, fields: fields, number: n}); };
      }, function (why) { worker.terminate(); throw why; });
    });
  }

  // The worker's side: each message answered in turn, the engine loaded by the first.
  if (IN_WORKER) {
    var here = null;
    root.onmessage = function (e) {
      var m = e.data;
      if (!here) {
        here = bootHere(m.words || null);
        here.catch(function () { here = null; });
      }
      here.then(function (priceJson) {
        var answer = m.op === "price" ? priceJson(m.game, m.fields, m.number) : null;
        root.postMessage({id: m.id, ok: true, answer: answer});
      }).catch(function (why) {
        root.postMessage({id: m.id, ok: false, error: String(why && why.message || why)});
      });
    };
  }

  function ready() {
    if (!loading) {
      loading = boot();
      loading.catch(function () { loading = null; });
    }
    return loading.then(function () {});
  }

  // Fields the form posts as several values (checkboxes) are always arrays here.
  // Which they are is the one field table's (league/entry/fields.py), given in
  // the page as #hand-fields; without it a name posted twice is an array, and
  // one ticked box goes bare, which the phone's Python reads as a list too.
  function multiOf(doc) {
    var block = doc && doc.getElementById("hand-fields"), names = {};
    if (block) JSON.parse(block.textContent).multi.forEach(function (n) { names[n] = true; });
    return names;
  }

  function fieldsOf(form) {
    var out = {}, multi = multiOf(form.ownerDocument);
    new FormData(form).forEach(function (value, name) {
      if (typeof value !== "string") return;
      if (multi[name] || Array.isArray(out[name])) (out[name] = out[name] || []).push(value);
      else if (name in out) out[name] = [out[name], value];
      else out[name] = value;
    });
    return out;
  }

  function price(game, fields, number) {
    if (!loading) ready();
    return loading.then(function (priceJson) {
      var n = number == null ? game.number : number;
      return priceJson(JSON.stringify(game), JSON.stringify(fields), n);
    }).then(JSON.parse);
  }

  function apply(game, result) {
    if (!result.ok) throw new Error("only a priced hand can be applied");
    var next = JSON.parse(JSON.stringify(game));
    var hands = next.record.hands;
    if (result.correction) {
      hands[result.number - 1] = result.hand;
    } else {
      hands.push(result.hand);
      next.number = hands.length + 1;
    }
    next.state = result.digest;
    next.finished = result.after.ended;
    return next;
  }

  function available() {
    return engineInfo().then(function (m) { return !!m.available; }, function () { return false; });
  }

  root.TenbouEngine = { available: available, ready: ready, fieldsOf: fieldsOf, price: price, apply: apply,
                        info: engineInfo };
})(typeof window !== "undefined" ? window : globalThis);
