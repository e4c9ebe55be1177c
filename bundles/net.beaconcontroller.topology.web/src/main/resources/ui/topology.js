// Topology: switches, links and hosts as a live graph on a canvas (force layout), with details on click and the
// route between two hosts. Hosts are drawn one by one in small networks and collapsed into a count per switch in
// large ones (expand a switch to see its hosts).
import { h, message, fmt, ApiError } from '/ui/lib.js';

/** Above this many hosts they start collapsed per switch; above SHOW_ALL_LIMIT they cannot all be shown at once. */
const COLLAPSE_ABOVE = 200;
const SHOW_ALL_LIMIT = 2000;
const CUTOFF = 160;
const ALL_PAIRS = 400;
const COLORS = { link: '#7b8794', host: '#1b6e20', switch: '#0b5cad', route: '#d9480f', select: '#ffbf47', text: '#1a1d21' };

export async function render(el, ui) {
  const started = performance.now();
  const canvas = h('canvas', { id: 'topology-canvas', tabindex: '0', role: 'img',
    'aria-label': 'Topology graph. Arrow keys pan, plus and minus zoom, F fits. The lists below the graph hold the same.' });
  const details = h('div', { id: 'topology-details' }, h('p', { class: 'muted' }, 'Click a switch or host for its details. Double-click a switch to show or hide its hosts.'));
  const routeStatus = h('div', { id: 'topology-route-status', role: 'status' });
  const fromInput = h('input', { id: 'route-from', placeholder: 'IP or MAC', size: 17 });
  const toInput = h('input', { id: 'route-to', placeholder: 'IP or MAC', size: 17 });
  const allHosts = h('input', { type: 'checkbox', id: 'topology-all-hosts' });
  const counts = h('span', { class: 'muted', id: 'topology-counts' });
  const linkList = h('ul', { id: 'topology-links' });
  const switchList = h('ul', { id: 'topology-switches' });
  el.append(h('h1', {}, 'Topology'),
    h('div', { class: 'toolbar' },
      h('form', { class: 'toolbar', onsubmit: (e) => { e.preventDefault(); showRoute(); } },
        h('label', { for: 'route-from' }, 'Route from'), fromInput, h('label', { for: 'route-to' }, 'to'), toInput,
        h('button', { type: 'submit' }, 'Show route'),
        h('button', { type: 'button', class: 'secondary', onclick: () => { route = null; routeStatus.replaceChildren(); dirty = true; } }, 'Clear')),
      h('label', { class: 'toolbar' }, allHosts, 'Show every host'),
      h('button', { type: 'button', class: 'secondary', onclick: () => refit() }, 'Fit'), counts),
    routeStatus,
    h('div', { class: 'topology' }, canvas, h('aside', {}, details)),
    h('div', { class: 'legend' }, h('span', {}, '■ switch'), h('span', {}, '● host'), h('span', {}, '— link'),
      h('span', {}, '- - one direction only'), h('span', {}, 'orange: route')),
    h('details', { id: 'topology-lists' }, h('summary', {}, 'Switches and links as lists'),
      h('h2', {}, 'Links'), linkList, h('h2', {}, 'Switches'), switchList));

  const switches = new Map();
  const hosts = new Map();
  let links = [];
  const expanded = new Set();
  let selected = null;
  let route = null;
  let alpha = 1;
  let dirty = true;
  // The view keeps the whole graph in frame as the layout moves and the canvas resizes, until the user pans or zooms.
  let follow = true;
  let view = { scale: 1, x: 0, y: 0 };
  let visible = [];
  let edges = [];
  const frames = [];
  let loadMs = null;
  let loaded = null;

  // ---- data ----
  async function load() {
    const [sws, ls, ds] = await Promise.all([ui.api('/wm/core/controller/switches/json'),
      ui.api('/wm/topology/links/json'), ui.api('/wm/device/').catch((e) => (e instanceof ApiError ? [] : Promise.reject(e)))]);
    if (!ui.active) return;
    merge(sws, ls, ds);
  }

  function merge(sws, ls, ds) {
    const seen = new Set();
    sws.forEach((s, i) => {
      seen.add(s.switchDPID);
      if (!switches.has(s.switchDPID)) switches.set(s.switchDPID, node(s.switchDPID, 'switch', i));
    });
    for (const id of [...switches.keys()]) if (!seen.has(id)) switches.delete(id);
    links = ls.filter((l) => switches.has(l['src-switch']) && switches.has(l['dst-switch']))
      .map((l) => ({ a: l['src-switch'], ap: l['src-port'], b: l['dst-switch'], bp: l['dst-port'], both: l.direction === 'bidirectional' }));
    // A new switch starts beside a neighbour that has a place already, so the layout has less to undo.
    for (const l of links) {
      const a = switches.get(l.a);
      const b = switches.get(l.b);
      if (a.fresh && !b.fresh) place(a, b);
      else if (b.fresh && !a.fresh) place(b, a);
    }
    const seenHosts = new Set();
    for (const d of ds) {
      const ap = d.attachmentPoint?.[0];
      if (!ap || !switches.has(ap.switchDPID)) continue;
      const mac = d.mac[0];
      seenHosts.add(mac);
      let n = hosts.get(mac);
      if (!n) {
        n = node(mac, 'host', hosts.size);
        place(n, switches.get(ap.switchDPID));
        hosts.set(mac, n);
      }
      n.sw = ap.switchDPID;
      n.port = ap.port;
      n.ips = d.ipv4;
      n.vlan = d.vlan;
      n.lastSeen = d.lastSeen;
    }
    for (const id of [...hosts.keys()]) if (!seenHosts.has(id)) hosts.delete(id);
    for (const n of switches.values()) n.fresh = false;
    if (selected && !switches.has(selected.id) && !hosts.has(selected.id)) selected = null;
    allHosts.disabled = hosts.size > SHOW_ALL_LIMIT;
    if (!allHostsTouched) allHosts.checked = hosts.size <= COLLAPSE_ABOVE;
    rebuild();
    alpha = Math.max(alpha, 0.5);
    dirty = true;
    canvas.dataset.switches = switches.size;
    canvas.dataset.links = links.length;
    canvas.dataset.hosts = hosts.size;
    counts.textContent = `${fmt.number(switches.size)} switches · ${fmt.number(links.length)} links · ${fmt.number(hosts.size)} hosts`;
    linkList.replaceChildren(...links.map((l) => h('li', { dataset: { link: `${l.a}/${l.ap}-${l.b}/${l.bp}` } },
      `${l.a} port ${l.ap} ${l.both ? '↔' : '→'} ${l.b} port ${l.bp}`)));
    switchList.replaceChildren(...[...switches.keys()].sort().map((id) => h('li', { dataset: { switch: id } },
      h('button', { type: 'button', class: 'secondary', onclick: () => select(switches.get(id)) }, id),
      ` ${hostCount(id)} host(s)`)));
    if (selected) showDetails();
  }

  let allHostsTouched = false;
  allHosts.addEventListener('change', () => { allHostsTouched = true; rebuild(); alpha = Math.max(alpha, 0.5); dirty = true; });

  function node(id, kind, i) {
    // A golden-angle spiral: spread out from the start, so the layout settles in few steps even with 1,000 switches.
    const r = 40 * Math.sqrt(i + 1);
    const t = i * 2.39996;
    return { id, kind, x: r * Math.cos(t), y: r * Math.sin(t), vx: 0, vy: 0, fresh: true };
  }

  function place(n, near) {
    const t = Math.random() * Math.PI * 2;
    n.x = near.x + Math.cos(t) * (n.kind === 'host' ? 30 : 80);
    n.y = near.y + Math.sin(t) * (n.kind === 'host' ? 30 : 80);
  }

  function hostCount(sw) {
    let c = 0;
    for (const n of hosts.values()) if (n.sw === sw) c++;
    return c;
  }

  function hostShown(n) {
    return (allHosts.checked && !allHosts.disabled) || expanded.has(n.sw);
  }

  function rebuild() {
    visible = [...switches.values()];
    edges = links.map((l) => ({ a: switches.get(l.a), b: switches.get(l.b), len: 90, link: l }));
    for (const n of hosts.values()) {
      if (!hostShown(n)) continue;
      visible.push(n);
      edges.push({ a: n, b: switches.get(n.sw), len: 32, host: true });
    }
    badges = new Map();
    for (const n of hosts.values()) if (!hostShown(n)) badges.set(n.sw, (badges.get(n.sw) ?? 0) + 1);
  }
  let badges = new Map();

  // ---- layout: springs on edges, repulsion between nodes (in large graphs only closer than CUTOFF: a grid finds them), weak gravity ----
  function step() {
    if (visible.length <= ALL_PAIRS) {
      // Small networks: every pair repels, which untangles crossings that a cut-off leaves in place.
      for (const n of visible) for (const m of visible) if (m !== n) repel(n, m, Infinity);
    } else {
      const grid = new Map();
      for (const n of visible) {
        const k = `${Math.floor(n.x / CUTOFF)},${Math.floor(n.y / CUTOFF)}`;
        let cell = grid.get(k);
        if (!cell) grid.set(k, (cell = []));
        cell.push(n);
      }
      for (const n of visible) {
        const cx = Math.floor(n.x / CUTOFF);
        const cy = Math.floor(n.y / CUTOFF);
        for (let dx = -1; dx <= 1; dx++) {
          for (let dy = -1; dy <= 1; dy++) {
            for (const m of grid.get(`${cx + dx},${cy + dy}`) ?? []) if (m !== n) repel(n, m, CUTOFF * CUTOFF);
          }
        }
      }
    }
    for (const e of edges) {
      const dx = e.b.x - e.a.x;
      const dy = e.b.y - e.a.y;
      const d = Math.sqrt(dx * dx + dy * dy) || 1;
      const f = ((d - e.len) / d) * 0.08 * alpha;
      e.a.vx += dx * f; e.a.vy += dy * f;
      e.b.vx -= dx * f; e.b.vy -= dy * f;
    }
    for (const n of visible) {
      n.vx -= n.x * 0.0015 * alpha;
      n.vy -= n.y * 0.0015 * alpha;
      if (n === dragging) { n.vx = 0; n.vy = 0; continue; }
      n.vx *= 0.6; n.vy *= 0.6;
      n.x += Math.max(-50, Math.min(50, n.vx));
      n.y += Math.max(-50, Math.min(50, n.vy));
    }
    alpha *= 0.985;
  }

  function repel(n, m, range2) {
    let ddx = n.x - m.x;
    let ddy = n.y - m.y;
    let d2 = ddx * ddx + ddy * ddy;
    if (d2 > range2) return;
    if (d2 < 1) { ddx = Math.random() - 0.5; ddy = Math.random() - 0.5; d2 = 1; }
    const strength = (m.kind === 'host' || n.kind === 'host' ? 300 : 2400) * alpha / d2;
    n.vx += ddx * strength;
    n.vy += ddy * strength;
  }

  // ---- drawing ----
  const g = canvas.getContext('2d');
  function draw() {
    const ratio = window.devicePixelRatio || 1;
    const w = canvas.clientWidth;
    const ht = canvas.clientHeight;
    if (canvas.width !== Math.round(w * ratio) || canvas.height !== Math.round(ht * ratio)) {
      canvas.width = Math.round(w * ratio);
      canvas.height = Math.round(ht * ratio);
    }
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, canvas.width, canvas.height);
    g.setTransform(ratio * view.scale, 0, 0, ratio * view.scale, ratio * (w / 2 + view.x), ratio * (ht / 2 + view.y));
    const px = 1 / view.scale;
    const onRoute = route?.links ?? new Set();
    for (const e of edges) {
      const routed = e.link ? onRoute.has(linkKey(e.link.a, e.link.b)) : route?.hosts.has(e.a.id);
      g.strokeStyle = routed ? COLORS.route : e.host ? '#a9b3bf' : COLORS.link;
      g.lineWidth = (routed ? 4 : e.host ? 1 : 2) * px;
      g.setLineDash(e.link && !e.link.both ? [6 * px, 4 * px] : []);
      g.beginPath();
      g.moveTo(e.a.x, e.a.y);
      g.lineTo(e.b.x, e.b.y);
      g.stroke();
    }
    g.setLineDash([]);
    const labels = view.scale > 0.6;
    g.font = `${11 * px}px system-ui, sans-serif`;
    g.textAlign = 'center';
    for (const n of visible) {
      const routed = route && (n.kind === 'switch' ? route.switches.has(n.id) : route.hosts.has(n.id));
      if (n.kind === 'switch') {
        g.fillStyle = routed ? COLORS.route : COLORS.switch;
        g.fillRect(n.x - 8, n.y - 8, 16, 16);
        const count = badges.get(n.id);
        if (count && view.scale > 0.35) {
          g.fillStyle = COLORS.host;
          g.beginPath();
          g.arc(n.x + 10, n.y - 10, 7, 0, Math.PI * 2);
          g.fill();
          g.fillStyle = '#fff';
          g.font = `${9}px system-ui, sans-serif`;
          g.fillText(count > 99 ? '99+' : String(count), n.x + 10, n.y - 7);
          g.font = `${11 * px}px system-ui, sans-serif`;
        }
        if (labels) {
          g.fillStyle = COLORS.text;
          g.fillText(shortDpid(n.id), n.x, n.y + 8 + 13 * px);
        }
      } else {
        g.fillStyle = routed ? COLORS.route : COLORS.host;
        g.beginPath();
        g.arc(n.x, n.y, 5, 0, Math.PI * 2);
        g.fill();
        if (view.scale > 1.1) {
          g.fillStyle = COLORS.text;
          g.fillText(n.ips?.[0] ?? n.id, n.x, n.y + 5 + 12 * px);
        }
      }
      if (n === selected) {
        g.strokeStyle = COLORS.select;
        g.lineWidth = 3 * px;
        g.strokeRect(n.x - 12, n.y - 12, 24, 24);
      }
    }
  }

  function shortDpid(id) {
    return id.replace(/^(00:)+/, '') || '0';
  }

  function fit() {
    if (!visible.length) return;
    let x0 = Infinity; let y0 = Infinity; let x1 = -Infinity; let y1 = -Infinity;
    for (const n of visible) { x0 = Math.min(x0, n.x); y0 = Math.min(y0, n.y); x1 = Math.max(x1, n.x); y1 = Math.max(y1, n.y); }
    const w = canvas.clientWidth - 60;
    const ht = canvas.clientHeight - 60;
    const scale = Math.min(2, Math.max(0.02, Math.min(w / Math.max(1, x1 - x0), ht / Math.max(1, y1 - y0))));
    view = { scale, x: -((x0 + x1) / 2) * scale, y: -((y0 + y1) / 2) * scale };
    dirty = true;
  }

  let raf = 0;
  function frame() {
    raf = requestAnimationFrame(frame);
    if (alpha < 0.004 && !dirty) return;
    const t0 = performance.now();
    if (alpha >= 0.004) step();
    if (follow) fit();
    draw();
    dirty = false;
    frames.push(performance.now() - t0);
    if (frames.length > 240) frames.shift();
    if (loadMs === null && switches.size) {
      loadMs = performance.now() - started;
      loaded = { switches: switches.size, links: links.length, hosts: hosts.size };
    }
    canvas.dataset.settled = String(alpha < 0.004);
  }

  // ---- interaction ----
  function toWorld(e) {
    const r = canvas.getBoundingClientRect();
    return { x: (e.clientX - r.left - r.width / 2 - view.x) / view.scale, y: (e.clientY - r.top - r.height / 2 - view.y) / view.scale };
  }
  function hit(p) {
    let best = null;
    let bestD = (14 / Math.min(1, view.scale)) ** 2;
    for (const n of visible) {
      const d = (n.x - p.x) ** 2 + (n.y - p.y) ** 2;
      if (d < bestD) { best = n; bestD = d; }
    }
    return best;
  }
  let dragging = null;
  let pointer = null;
  canvas.addEventListener('pointerdown', (e) => {
    canvas.setPointerCapture(e.pointerId);
    const n = hit(toWorld(e));
    pointer = { x: e.clientX, y: e.clientY, moved: false, node: n };
    if (n) dragging = n;
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!pointer) return;
    if (Math.abs(e.clientX - pointer.x) + Math.abs(e.clientY - pointer.y) > 3) pointer.moved = true;
    if (!pointer.moved) return;
    if (dragging) {
      const p = toWorld(e);
      dragging.x = p.x; dragging.y = p.y;
      follow = false;
      alpha = Math.max(alpha, 0.1);
    } else {
      view.x += e.movementX; view.y += e.movementY;
      follow = false;
    }
    dirty = true;
  });
  canvas.addEventListener('pointerup', () => {
    if (pointer && !pointer.moved) select(pointer.node);
    dragging = null;
    pointer = null;
  });
  canvas.addEventListener('dblclick', (e) => {
    const n = hit(toWorld(e));
    if (n?.kind === 'switch') toggleHosts(n.id);
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    zoom(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left - r.width / 2, e.clientY - r.top - r.height / 2);
  }, { passive: false });
  canvas.addEventListener('keydown', (e) => {
    const moves = { ArrowLeft: [40, 0], ArrowRight: [-40, 0], ArrowUp: [0, 40], ArrowDown: [0, -40] };
    if (moves[e.key]) { view.x += moves[e.key][0]; view.y += moves[e.key][1]; follow = false; dirty = true; }
    else if (e.key === '+' || e.key === '=') zoom(1.25, 0, 0);
    else if (e.key === '-') zoom(0.8, 0, 0);
    else if (e.key === 'f' || e.key === 'F') refit();
    else return;
    e.preventDefault();
  });
  function zoom(factor, cx, cy) {
    const scale = Math.min(8, Math.max(0.02, view.scale * factor));
    const f = scale / view.scale;
    view = { scale, x: cx - (cx - view.x) * f, y: cy - (cy - view.y) * f };
    follow = false;
    dirty = true;
  }
  function refit() {
    follow = true;
    fit();
  }
  function toggleHosts(id) {
    if (expanded.has(id)) expanded.delete(id); else expanded.add(id);
    rebuild();
    alpha = Math.max(alpha, 0.3);
    dirty = true;
    if (selected) showDetails();
  }

  function select(n) {
    selected = n;
    dirty = true;
    showDetails();
  }

  function showDetails() {
    const n = selected;
    if (!n) {
      details.replaceChildren(h('p', { class: 'muted' }, 'Click a switch or host for its details.'));
      return;
    }
    const row = (k, v) => [h('dt', {}, k), h('dd', {}, v)];
    if (n.kind === 'switch') {
      const own = links.filter((l) => l.a === n.id || l.b === n.id);
      const count = hostCount(n.id);
      details.replaceChildren(h('h2', {}, 'Switch'), h('dl', {},
        row('DPID', h('a', { href: `#/switches/${n.id}`, class: 'mono' }, n.id)),
        row('Links', String(own.length)),
        row('Hosts', String(count))),
      h('ul', {}, own.map((l) => h('li', { class: 'mono' }, l.a === n.id ? `port ${l.ap} → ${shortDpid(l.b)}:${l.bp}` : `port ${l.bp} → ${shortDpid(l.a)}:${l.ap}`))),
      count ? h('button', { type: 'button', class: 'secondary', onclick: () => toggleHosts(n.id) },
        expanded.has(n.id) ? 'Hide its hosts' : 'Show its hosts') : null);
    } else {
      const name = n.ips?.[0] ?? n.id;
      details.replaceChildren(h('h2', {}, 'Host'), h('dl', {},
        row('MAC', h('span', { class: 'mono' }, n.id)),
        row('IPv4', n.ips?.join(', ') || 'none seen'),
        row('Attached to', h('a', { href: `#/switches/${n.sw}`, class: 'mono' }, `${n.sw} port ${n.port}`)),
        row('Last seen', fmt.ago(n.lastSeen))),
      h('div', { class: 'toolbar' },
        h('button', { type: 'button', class: 'secondary', onclick: () => { fromInput.value = name; } }, 'Route from here'),
        h('button', { type: 'button', class: 'secondary', onclick: () => { toInput.value = name; if (fromInput.value) showRoute(); } }, 'Route to here')));
    }
  }

  function findHost(text) {
    const t = text.trim().toLowerCase();
    for (const n of hosts.values()) if (n.id === t || n.ips?.includes(t)) return n;
    return null;
  }

  function linkKey(a, b) {
    return a < b ? `${a}|${b}` : `${b}|${a}`;
  }

  async function showRoute() {
    const from = findHost(fromInput.value);
    const to = findHost(toInput.value);
    if (!from || !to) {
      routeStatus.replaceChildren(message('error', `No host ${!from ? fromInput.value || '(empty)' : toInput.value || '(empty)'} in the topology.`));
      return;
    }
    let path;
    try {
      path = await ui.api(`/wm/topology/route/${from.sw}/${from.port}/${to.sw}/${to.port}/json`);
    } catch (e) {
      routeStatus.replaceChildren(message('error', `No route: ${e.message}`));
      return;
    }
    const order = [];
    for (const hop of path) if (order[order.length - 1] !== hop.switch) order.push(hop.switch);
    const routeLinks = new Set();
    for (let i = 1; i < order.length; i++) routeLinks.add(linkKey(order[i - 1], order[i]));
    route = { switches: new Set(order), links: routeLinks, hosts: new Set([from.id, to.id]) };
    expanded.add(from.sw);
    expanded.add(to.sw);
    rebuild();
    dirty = true;
    routeStatus.replaceChildren(path.length
      ? h('p', { class: 'message ok', id: 'topology-route' }, `${fromInput.value} → ${order.map(shortDpid).join(' → ')} → ${toInput.value}: `
        + `${order.length} switch${order.length === 1 ? '' : 'es'}`)
      : message('error', `No path between ${fromInput.value} and ${toInput.value}.`));
  }

  // ---- live ----
  let pending = false;
  ui.on(['switch-added', 'switch-removed', 'link-added', 'link-removed', 'device-added', 'device-moved', 'device-removed'], () => {
    if (pending) return;
    pending = true;
    ui.later(hosts.size > SHOW_ALL_LIMIT ? 1500 : 300, () => { pending = false; load().catch(() => {}); });
  });
  const resize = new ResizeObserver(() => { dirty = true; });
  resize.observe(canvas);

  // For measuring: the scale benchmark reads load and frame times here.
  window.beaconTopology = {
    startedAt: started,
    stats: () => ({ loadMs, loaded, frames: frames.slice(), switches: switches.size, links: links.length, hosts: hosts.size, visible: visible.length, settled: alpha < 0.004 }),
    pan(dx, dy) { view.x += dx; view.y += dy; follow = false; dirty = true; },
    zoom(f) { zoom(f, 0, 0); },
  };

  await load();
  raf = requestAnimationFrame(frame);
  ui.every(15000, () => load().catch(() => {}));
  return () => {
    cancelAnimationFrame(raf);
    resize.disconnect();
    delete window.beaconTopology;
  };
}
