// Helpers every page shares: the REST client, element building, sortable tables and number formats.

/** An answer other than 2xx, with the server's explanation (problem details or Floodlight's "status"). */
export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

/** Calls the REST API; a body that is not FormData goes as JSON. Resolves to the parsed answer. */
export async function api(path, { method = 'GET', body } = {}) {
  const init = { method, headers: { Accept: 'application/json' } };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) {
    const detail = data && (data.detail || data.status || data.ERROR) || `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, typeof detail === 'string' ? detail : JSON.stringify(detail));
  }
  return data;
}

/** Builds an element: h('a', {href: '#'}, 'text', child). Attributes starting with "on" become listeners. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

/** A message box; kind "error" is announced to screen readers at once. */
export function message(kind, text) {
  return h('div', { class: `message ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/**
 * A table whose columns sort by a click or Enter on their header. columns: [{key, label, value(row), render(row),
 * num}], where value gives what sorts (default row[key]) and render what shows (default value). update(rows)
 * redraws; filter(text) shows rows whose text contains it. At most `limit` rows are drawn (the rest are counted).
 */
export function table(columns, { rowKey, empty = 'Nothing to show.', caption, limit = 1000, sortBy } = {}) {
  let rows = [];
  let sort = { key: sortBy ?? columns[0].key, dir: 1 };
  let filterText = '';
  const headRow = h('tr');
  const body = h('tbody');
  const note = h('p', { class: 'muted' });
  const el = h('div', { class: 'scroll' },
    h('table', {}, caption ? h('caption', { class: 'sr-only' }, caption) : null, h('thead', {}, headRow), body), note);
  const value = (c, r) => (c.value ? c.value(r) : r[c.key]);

  function header() {
    headRow.replaceChildren(...columns.map((c) => h('th', {
      scope: 'col', class: [c.num ? 'num' : '', c.narrow ? '' : '', c.hideNarrow ? 'hide-narrow' : ''].join(' ').trim(),
      'aria-sort': c.key === sort.key ? (sort.dir > 0 ? 'ascending' : 'descending') : (c.sortable === false ? null : 'none'),
    }, c.sortable === false ? c.label : h('button', {
      class: 'sort', type: 'button',
      onclick: () => { sort = { key: c.key, dir: sort.key === c.key ? -sort.dir : 1 }; draw(); },
    }, c.label))));
  }

  function draw() {
    header();
    const column = columns.find((c) => c.key === sort.key) ?? columns[0];
    const needle = filterText.toLowerCase();
    let shown = needle
      ? rows.filter((r) => columns.some((c) => String(value(c, r) ?? '').toLowerCase().includes(needle)))
      : rows.slice();
    shown.sort((a, b) => compare(value(column, a), value(column, b)) * sort.dir);
    const total = shown.length;
    if (shown.length > limit) shown = shown.slice(0, limit);
    body.replaceChildren(...shown.map((r) => h('tr', { dataset: rowKey ? { key: rowKey(r) } : undefined },
      columns.map((c) => h('td', { class: [c.num ? 'num' : '', c.hideNarrow ? 'hide-narrow' : ''].join(' ').trim() },
        c.render ? c.render(r) : value(c, r))))));
    note.textContent = total === 0 ? (rows.length === 0 ? empty : 'No row matches the filter.')
      : total > limit ? `Showing ${limit} of ${total} rows: narrow the filter to see the others.` : '';
  }

  draw();
  return {
    el,
    update(newRows) { rows = newRows; draw(); },
    filter(text) { filterText = text; draw(); },
  };
}

function compare(a, b) {
  if (a === b) return 0;
  if (a === undefined || a === null || a === '') return 1;
  if (b === undefined || b === null || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

/** A search box that calls onInput with its text. */
export function searchBox(label, onInput) {
  const input = h('input', { type: 'search', placeholder: label, 'aria-label': label, oninput: () => onInput(input.value) });
  return input;
}

export const fmt = {
  number: (n) => (n === undefined || n === null ? '' : Number(n).toLocaleString('en-US')),
  bytes(n) {
    if (n === undefined || n === null) return '';
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0;
    let v = Number(n);
    while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
    return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
  },
  rate: (n) => (n === undefined || n === null ? '' : `${n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US')}/s`),
  duration(ms) {
    let s = Math.floor(ms / 1000);
    const d = Math.floor(s / 86400); s -= d * 86400;
    const hr = Math.floor(s / 3600); s -= hr * 3600;
    const m = Math.floor(s / 60); s -= m * 60;
    return (d ? `${d}d ` : '') + (d || hr ? `${hr}h ` : '') + (d || hr || m ? `${m}m ` : '') + `${s}s`;
  },
  ago: (epochMs) => (epochMs ? `${fmt.duration(Math.max(0, Date.now() - epochMs))} ago` : ''),
  time: (epochMs) => (epochMs ? new Date(epochMs).toLocaleString() : ''),
};

/** Draws a small line chart of the values (oldest first) on a canvas; scaled to the largest. */
export function sparkline(canvas, series) {
  const ratio = window.devicePixelRatio || 1;
  const w = canvas.clientWidth;
  const ht = canvas.clientHeight;
  canvas.width = w * ratio;
  canvas.height = ht * ratio;
  const g = canvas.getContext('2d');
  g.scale(ratio, ratio);
  g.clearRect(0, 0, w, ht);
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  for (const s of series) {
    g.strokeStyle = s.color;
    g.lineWidth = 2;
    g.beginPath();
    // One sample so far: a level line rather than nothing.
    const values = s.values.length === 1 ? [s.values[0], s.values[0]] : s.values;
    values.forEach((v, i) => {
      const x = (i / (values.length - 1)) * (w - 2) + 1;
      const y = ht - 2 - (v / max) * (ht - 4);
      if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
    });
    g.stroke();
  }
}

/** OpenFlow 1.0 port bits: config OFPPC_PORT_DOWN and state OFPPS_LINK_DOWN. */
export function portUp(port) {
  return (Number(port.config) & 1) === 0 && (Number(port.state) & 1) === 0;
}
