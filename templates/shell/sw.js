/* truco-scorer service worker {{ version }}: keeps the static shell for offline use and shows
   the "no connection" page when a page cannot be loaded. Scoreboards are never cached, so a
   stale score is never shown as the current one. It also keeps the offline engine (issue 24:
   Pyodide and the engine bundle, fetched in the background by a page, never at install). */
"use strict";
const CACHE = "truco-shell-{{ version }}";
const META = "truco-meta";
const ENGINE = "truco-engine";
const PAGES = "truco-pages";
/* The engine worker's memory snapshot of its started Python (static/js/engine-worker.js keeps
   and replaces it); kept across versions of this worker like the engine's files. */
const SNAPSHOTS = "truco-engine-snapshot";
const SHELL = {{ shell|tojson }};
const OFFLINE = {{ offline|tojson }};
/* Path prefixes of the engine's files: kept once fetched (their URLs hold their version). */
const ENGINE_PATHS = {{ engine|tojson }};
/* What a page needs to start the engine: from the network, else as last seen. */
const ENGINE_INFO = {{ engine_info|tojson }};

/* Install downloads little: the shell files the page itself loads (already in the HTTP
   cache, under versioned URLs cached for a year, so nothing goes over the network) and the
   offline page in one language, the browser's; the page then says its own language (see
   "message") and that offline page is added if it differs. Images are not installed: the
   page's icon is fetched by the browser on its own, often after the install (the worker
   would download it a second time), and neither the offline page nor the shell needs it;
   an image is cached the first time the page asks for it. */
const ESSENTIAL = SHELL.filter((u) => !/\.(png|svg)(\?|$)/.test(u));

function browserLang() {
  const tags = (self.navigator.languages || [self.navigator.language || ""]).map((t) => t.replace("-", "_"));
  for (const tag of tags) {
    if (Object.prototype.hasOwnProperty.call(OFFLINE, tag)) return tag;
    const short = Object.keys(OFFLINE).find((code) => code.slice(0, 2) === tag.slice(0, 2));
    if (short) return short;
  }
  return "{{ default }}";
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(ESSENTIAL.concat([OFFLINE[browserLang()]])))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => ![CACHE, META, ENGINE, PAGES, SNAPSHOTS].includes(k)).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

/* A page asks for the engine's files (event.data.engine: their URLs): those missing are
   fetched, the engine's older files dropped; the page hears {engineCached: true}. */
function keepEngine(urls, source) {
  return caches.open(ENGINE).then((cache) => cache.keys().then((have) => {
    const wanted = new Set(urls.map((u) => new URL(u, self.location.origin).href));
    const old = have.filter((r) => !wanted.has(r.url));
    const held = new Set(have.map((r) => r.url));
    return Promise.all(old.map((r) => cache.delete(r)))
      .then(() => Promise.all([...wanted].filter((u) => !held.has(u)).map((u) => cache.add(u))));
  })).then(() => source && source.postMessage({ engineCached: true }),
           () => source && source.postMessage({ engineCached: false }));
}

/* Pages tell the worker their language, so the offline page speaks it too. */
self.addEventListener("message", (event) => {
  if (event.data && Array.isArray(event.data.engine)) {
    event.waitUntil(keepEngine(event.data.engine, event.source));
    return;
  }
  /* A page the offline engine can play on (a board, the new-match form): kept, and shown
     when it cannot be loaded; the engine then draws the phone's own board over it. */
  if (event.data && typeof event.data.page === "string" && event.data.page.charAt(0) === "/") {
    event.waitUntil(caches.open(PAGES).then((c) => c.add(event.data.page)).catch(() => null));
    return;
  }
  const lang = event.data && event.data.lang;
  if (Object.prototype.hasOwnProperty.call(OFFLINE, lang)) {
    event.waitUntil(Promise.all([
      caches.open(META).then((c) => c.put("/lang", new Response(lang))),
      caches.open(CACHE).then((c) => c.match(OFFLINE[lang]).then((hit) => hit || c.add(OFFLINE[lang]))),
    ]));
  }
});

function offlinePage() {
  return caches.open(META)
    .then((c) => c.match("/lang"))
    .then((r) => (r ? r.text() : "{{ default }}"))
    .then((lang) => caches.match(OFFLINE[lang] || OFFLINE["{{ default }}"]))
    .then((r) => r || caches.open(CACHE).then((c) => c.match(OFFLINE[browserLang()])))
    .then((r) => r || new Response("", { status: 503 }));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === ENGINE_INFO && !url.search) {
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) { const copy = response.clone(); caches.open(PAGES).then((c) => c.put(ENGINE_INFO, copy)); }
      return response;
    }, () => caches.open(PAGES).then((c) => c.match(ENGINE_INFO, { ignoreVary: true }))
      .then((kept) => kept || new Response("", { status: 503 }))));
  } else if (ENGINE_PATHS.some((p) => url.pathname.startsWith(p))) {
    event.respondWith(caches.open(ENGINE).then((cache) => cache.match(request).then((hit) => hit || fetch(request).then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    }))));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.open(PAGES)
      .then((c) => c.match(url.pathname, { ignoreVary: true })).then((kept) => kept || offlinePage())));
  } else if (SHELL.includes(url.pathname + url.search)) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((c) => c.put(request, copy));
      }
      return response;
    })));
  }
  /* Everything else (scoreboard polls, actions) goes to the network only. */
});
