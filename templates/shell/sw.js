/* truco-scorer service worker {{ version }}: keeps the static shell for offline use and shows
   the "no connection" page when a page cannot be loaded. Scoreboards are never cached, so a
   stale score is never shown as the current one. */
"use strict";
const CACHE = "truco-shell-{{ version }}";
const META = "truco-meta";
const SHELL = {{ shell|tojson }};
const OFFLINE = {{ offline|tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(SHELL.concat(Object.values(OFFLINE))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE && k !== META).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

/* Pages tell the worker their language, so the offline page speaks it too. */
self.addEventListener("message", (event) => {
  const lang = event.data && event.data.lang;
  if (Object.prototype.hasOwnProperty.call(OFFLINE, lang)) {
    event.waitUntil(caches.open(META).then((c) => c.put("/lang", new Response(lang))));
  }
});

function offlinePage() {
  return caches.open(META)
    .then((c) => c.match("/lang"))
    .then((r) => (r ? r.text() : "{{ default }}"))
    .then((lang) => caches.match(OFFLINE[lang] || OFFLINE["{{ default }}"]))
    .then((r) => r || new Response("", { status: 503 }));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(offlinePage));
  } else if (SHELL.includes(url.pathname)) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
  }
  /* Everything else (scoreboard polls, actions) goes to the network only. */
});
