/* Tenbou's service worker, served from /staff/sw.js so that it controls the
   staff pages (league/views/webapp.py puts ASSETS and VERSION above this).

   It keeps what a game page needs to open again with no network: the game
   pages a scorer has opened, their offline.json, the page's scripts and the
   offline engine's files. Pages and game data ask the network first and fall
   back to the copy (after a few seconds, for a network that hangs rather than
   fails); the engine's runtime never changes for a version, so its copy
   is used first. Nothing is queued here: the hands waiting to be sent live
   in the page's storage (queue/store.js), so the scorer sees them and decides. */
/* global ASSETS, VERSION, OFFLINE_PAGES */
var CACHE = "tenbou-" + VERSION;
// The language of the last game page kept (its Content-Language), for the page
// shown in place of one not kept: the scorer's language, not the browser's.
var LANGUAGE_KEY = "/staff/sw-language";
// The last game page kept: the offline page's Back link goes there (in place of
// the page's "/staff/?back", which the view renders).
var LAST_PAGE_KEY = "/staff/sw-last-page";
var WAIT_MS = 4000;
var GAME_PAGE = /^\/staff\/games\/\d+\/(offline\.json)?$/;

// The worker's cache once installed, or null when it is gone: a logout's
// Clear-Site-Data deletes it, and an answer still on its way (the engine's files,
// a page) must not bring it back (issue 29: nothing kept after a logout). Only
// the install makes the cache.
function installed() {
  return caches.has(CACHE).then(function (there) { return there ? caches.open(CACHE) : null; });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    // One by one: a file the server does not have (engine.js before its build) fails alone.
    return Promise.all(ASSETS.map(function (url) { return refresh(cache, url); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("tenbou-") === 0 && n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

// A page asks for the engine's files to be kept (the list engine.json gives), so
// that the first hand entered offline can be priced even if the engine never ran.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  // A save answered in place: the page hands over the game's offline.json as the server
  // sent it with the save, so the copy follows the game without a request of its own.
  if (data.type === "put" && typeof data.body === "string") {
    var at = new URL(data.url, self.location.origin);
    // Only a game's offline.json: never a page's place.
    if (at.origin !== self.location.origin || !GAME_PAGE.test(at.pathname) || !/offline\.json$/.test(at.pathname)) return;
    event.waitUntil(installed().then(function (cache) {
      return cache && cache.put(at.origin + at.pathname, new Response(data.body, {headers: {"Content-Type": "application/json"}}));
    }));
    return;
  }
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  event.waitUntil(installed().then(function (cache) {
    return cache && Promise.all(data.urls.map(function (url) {
      // The runtime never changes for a version: fetched once. The rest afresh each time.
      if (url.indexOf("/pyodide/") === -1) return refresh(cache, url);
      return cache.match(url).then(function (hit) { return hit || refresh(cache, url); });
    }));
  }));
});

function keep(request, response) {
  // Only a real answer is kept: never a redirect to the login page or an error
  // (an answer rebuilt by whole() is of type "default": it was "basic").
  if (response.ok && !response.redirected && (response.type === "basic" || response.type === "default")) {
    var copy = response.clone(), url = new URL(request.url), language = response.headers.get("Content-Language");
    installed().then(function (cache) {
      if (!cache) return;
      cache.put(url.origin + url.pathname, copy);
      if (request.mode === "navigate" && language) cache.put(LANGUAGE_KEY, new Response(language));
      if (request.mode === "navigate" && GAME_PAGE.test(url.pathname)) cache.put(LAST_PAGE_KEY, new Response(url.pathname));
    });
  }
  return response;
}

function fromCopy(request) {
  return caches.match(request, {ignoreSearch: true, ignoreVary: true}).then(function (hit) {
    if (hit) return hit;
    if (request.mode === "navigate") {
      var back = caches.match(LAST_PAGE_KEY).then(function (hit) { return hit ? hit.text() : "/staff/"; });
      return Promise.all([language(request), back]).then(function (both) {
        var html = OFFLINE_PAGES[both[0]].split("/staff/?back").join(both[1]);
        return new Response(html, {status: 503, headers: {"Content-Type": "text/html; charset=utf-8"}});
      });
    }
    return Response.error();
  });
}

// An answer a page may keep arrives whole or not at all. A connection cut after
// the headers leaves a short body; one cut inside them leaves what the browser
// takes for a 200 with no body at all (seen: an empty engine.json kept, and a
// phone with no engine). So the body is read here first, refused when empty or
// shorter than its Content-Length, and only then answered and kept; a refused
// or hanging answer falls back to the copy. Nothing Tenbou keeps is empty.
function whole(response) {
  if (!response.ok || response.redirected || response.type !== "basic") return Promise.resolve(response);
  return response.arrayBuffer().then(function (body) {
    if (!body.byteLength) throw new Error("empty answer");
    var size = response.headers.get("Content-Length");
    var plain = !response.headers.get("Content-Encoding");  // a compressed body is longer than its bytes here
    if (size !== null && plain && Number(size) !== body.byteLength) throw new Error("short answer");
    return new Response(body, {status: response.status, statusText: response.statusText, headers: response.headers});
  });
}

// A copy is replaced only by a whole new answer (cache.add would stream a body
// the network may cut into the copy's place): a failed look keeps the old copy.
function refresh(cache, url) {
  return fetch(url, {credentials: "same-origin"}).then(whole).then(function (response) {
    if (!response.ok || response.redirected) return;
    // A refresh that ends after a logout cleared the cache puts nothing back (installed()).
    return caches.has(CACHE).then(function (there) { if (there) return cache.put(url, response); });
  }).catch(function () {});
}

// The kept page's language, else the first of the browser's that has a page, else the first page.
function language(request) {
  return caches.match(LANGUAGE_KEY).then(function (hit) { return hit ? hit.text() : ""; }).then(function (kept) {
    var asked = [kept].concat((request.headers.get("Accept-Language") || "").split(","));
    for (var i = 0; i < asked.length; i++) {
      var code = asked[i].split(";")[0].trim().toLowerCase();
      if (OFFLINE_PAGES[code]) return code;
      if (OFFLINE_PAGES[code.split("-")[0]]) return code.split("-")[0];
    }
    return Object.keys(OFFLINE_PAGES)[0];
  });
}

function networkFirst(request) {
  var controller = new AbortController();
  var timer = setTimeout(function () { controller.abort(); }, WAIT_MS);
  return fetch(request, {signal: controller.signal})
    .then(whole)
    .then(function (response) { clearTimeout(timer); return keep(request, response); })
    .catch(function () { clearTimeout(timer); return fromCopy(request); });
}

function copyFirst(request) {
  return caches.match(request).then(function (hit) {
    return hit || fetch(request).then(whole).then(function (response) { return keep(request, response); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/staff/offline/pyodide/") === 0) {
    event.respondWith(copyFirst(request));
  } else if (GAME_PAGE.test(url.pathname) || url.pathname.indexOf("/staff/offline/") === 0 ||
             ASSETS.indexOf(url.pathname) !== -1) {
    event.respondWith(networkFirst(request));
  }
});
