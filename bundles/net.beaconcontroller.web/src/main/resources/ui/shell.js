// The shell: navigation from the pages every running bundle contributes, one server-push stream shared by the
// pages, and the life of the page on screen (its timers and subscriptions end when the user leaves it).
import { api, h, message } from '/ui/lib.js';

const nav = document.getElementById('nav');
const main = document.getElementById('main');
const live = document.getElementById('live');

let pages = [];
let generation = 0;
let current = null;
const handlers = new Map();
const stream = new EventSource('/wm/beacon/events');

stream.addEventListener('hello', () => setLive('live', false));
stream.addEventListener('error', () => setLive('reconnecting…', true));

function setLive(text, bad) {
  live.textContent = text;
  live.classList.toggle('bad', bad);
}

function subscribe(name, fn) {
  if (!handlers.has(name)) {
    handlers.set(name, new Set());
    stream.addEventListener(name, (e) => {
      let data = null;
      try { data = JSON.parse(e.data); } catch { /* an event without JSON data */ }
      for (const f of [...handlers.get(name)]) f(data, name);
    });
  }
  handlers.get(name).add(fn);
  return () => handlers.get(name).delete(fn);
}

// Bundles come and go: the navigation follows, and a page whose bundle stopped says so instead of failing.
subscribe('ui-changed', async (list) => {
  generation++;
  const before = current && pages.some((p) => p.id === current.id);
  pages = list ?? await api('/wm/beacon/ui/pages/json');
  drawNav();
  const now = current && pages.some((p) => p.id === current.id);
  if (current && before !== now) route();
});
subscribe('resync', () => route());

function drawNav() {
  const id = pageId();
  nav.replaceChildren(...pages.map((p) => h('a', {
    href: `#/${p.id}`, 'aria-current': p.id === id ? 'page' : null, dataset: { page: p.id },
  }, p.title)));
}

function pageId() {
  return decodeURIComponent(location.hash.replace(/^#\/?/, '').split('/')[0] || 'overview');
}

function leave() {
  if (!current) return;
  current.cleanups.forEach((f) => { try { f(); } catch (e) { console.warn(e); } });
  current = null;
}

/** What a page gets: the REST client, server push, timers and its address, all ended when the user leaves. */
function context(page, params) {
  const cleanups = [];
  const ctx = {
    id: page.id,
    cleanups,
    params,
    api,
    on(names, fn) {
      for (const n of [].concat(names)) cleanups.push(subscribe(n, fn));
    },
    every(ms, fn) {
      const t = setInterval(fn, ms);
      cleanups.push(() => clearInterval(t));
    },
    later(ms, fn) {
      const t = setTimeout(fn, ms);
      cleanups.push(() => clearTimeout(t));
    },
    navigate(hash) { location.hash = hash; },
    get active() { return current === ctx; },
  };
  return ctx;
}

async function route() {
  leave();
  const [, ...params] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const id = pageId();
  drawNav();
  const page = pages.find((p) => p.id === id);
  if (!page) {
    document.title = 'Beacon';
    main.replaceChildren(h('h1', {}, 'Page not available'), message('error',
      `No running bundle serves the page "${id}". It comes back when its bundle starts.`));
    return;
  }
  document.title = `${page.title} · Beacon`;
  const ctx = context(page, params.filter((p) => p !== ''));
  current = ctx;
  const container = h('div', { dataset: { page: page.id } });
  main.replaceChildren(container);
  try {
    const module = await import(`${page.module}?g=${generation}`);
    if (current !== ctx) return;
    const dispose = await module.render(container, ctx);
    if (typeof dispose === 'function') ctx.cleanups.push(dispose);
  } catch (e) {
    if (current === ctx) container.replaceChildren(h('h1', {}, page.title), message('error', e.message));
  }
}

window.addEventListener('hashchange', () => {
  route();
  main.focus({ preventScroll: true });
});

pages = await api('/wm/beacon/ui/pages/json');
route();
