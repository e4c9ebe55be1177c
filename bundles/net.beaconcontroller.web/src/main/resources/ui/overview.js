// Overview: the controller at a glance, its listener pipelines and live message rates.
import { h, fmt, table, sparkline } from '/ui/lib.js';

const HISTORY = 60;

export async function render(el, ui) {
  const cards = h('div', { class: 'cards', id: 'overview-cards' });
  const chart = h('canvas', { class: 'spark', role: 'img', 'aria-label': 'Messages per second, last two minutes' });
  const rates = h('p', { id: 'overview-rates' });
  const pipelines = h('div', { id: 'overview-pipelines' });
  const switches = table([
    { key: 'dpid', label: 'Switch', render: (s) => h('a', { href: `#/switches/${s.dpid}`, class: 'mono' }, s.dpid) },
    { key: 'address', label: 'Address', hideNarrow: true },
    { key: 'ioThread', label: 'I/O thread', hideNarrow: true },
    { key: 'inRate', label: 'In', num: true, render: (s) => fmt.rate(s.inRate) },
    { key: 'outRate', label: 'Out', num: true, render: (s) => fmt.rate(s.outRate) },
    { key: 'messagesIn', label: 'Messages in', num: true, render: (s) => fmt.number(s.messagesIn), hideNarrow: true },
    { key: 'messagesOut', label: 'Messages out', num: true, render: (s) => fmt.number(s.messagesOut), hideNarrow: true },
  ], { rowKey: (s) => s.dpid, empty: 'No switch is connected.', caption: 'Message rates per switch' });
  el.append(h('h1', {}, 'Overview'), cards,
    h('h2', {}, 'Messages per second'), rates, chart,
    h('h2', {}, 'Listener pipelines'), h('p', { class: 'muted' }, 'Each message type goes through its listeners in this order.'), pipelines,
    h('h2', {}, 'Switches'), switches.el);

  const inHistory = [];
  const outHistory = [];
  let last = null;

  async function refresh() {
    const [system, summary, listeners, sws] = await Promise.all([
      ui.api('/wm/beacon/system/json'), ui.api('/wm/core/controller/summary/json'),
      ui.api('/wm/beacon/listeners/json'), ui.api('/wm/beacon/switches/json')]);
    if (!ui.active) return;
    // An OSGi version's qualifier is the build time stamp: a line of its own, so the release stays readable.
    const version = (v) => {
      const [, release, build] = /^(\d+\.\d+\.\d+)(?:\.(.+))?$/.exec(v) ?? [null, v, null];
      return [release, build ? h('div', { class: 'label' }, `build ${build}`) : null];
    };
    const card = (label, value, id) => h('div', { class: 'card', dataset: { card: id } },
      h('div', { class: 'label' }, label), h('div', { class: 'value' }, value));
    cards.replaceChildren(
      card('Uptime', fmt.duration(system.uptimeMsec), 'uptime'),
      card('Switches', fmt.number(summary['# Switches'] ?? sws.length), 'switches'),
      card('Hosts', summary['# hosts'] === undefined ? 'n/a' : fmt.number(summary['# hosts']), 'hosts'),
      card('Links', summary['# inter-switch links'] === undefined ? 'n/a' : fmt.number(summary['# inter-switch links']), 'links'),
      card('Threads', fmt.number(system.threads), 'threads'),
      card('Heap used', `${fmt.bytes(system.heapUsed)} of ${fmt.bytes(system.heapMax)}`, 'heap'),
      card('Processors', fmt.number(system.processors), 'processors'),
      card('Version', version(system.version), 'version'));
    pipelines.replaceChildren(...Object.entries(listeners).map(([type, names]) => h('div', { class: 'pipeline' },
      h('span', { class: 'type' }, type),
      names.flatMap((n, i) => [i ? h('span', { class: 'arrow', 'aria-hidden': 'true' }, '→') : null, h('span', { class: 'step' }, n)]))));
    if (Object.keys(listeners).length === 0) pipelines.replaceChildren(h('p', { class: 'muted' }, 'No listener is registered.'));

    const now = performance.now();
    const previous = new Map((last?.sws ?? []).map((s) => [s.dpid, s]));
    const seconds = last ? (now - last.time) / 1000 : 0;
    let totalIn = 0;
    let totalOut = 0;
    for (const s of sws) {
      const p = previous.get(s.dpid);
      s.inRate = p && seconds > 0 ? Math.max(0, s.messagesIn - p.messagesIn) / seconds : undefined;
      s.outRate = p && seconds > 0 ? Math.max(0, s.messagesOut - p.messagesOut) / seconds : undefined;
      totalIn += s.inRate ?? 0;
      totalOut += s.outRate ?? 0;
    }
    if (last) {
      inHistory.push(totalIn);
      outHistory.push(totalOut);
      if (inHistory.length > HISTORY) { inHistory.shift(); outHistory.shift(); }
      rates.replaceChildren('In ', h('strong', {}, fmt.rate(totalIn)), ' · out ', h('strong', {}, fmt.rate(totalOut)),
        h('span', { class: 'muted' }, ' (blue: in, orange: out)'));
      sparkline(chart, [{ values: inHistory, color: '#0b5cad' }, { values: outHistory, color: '#c25e00' }]);
    } else {
      rates.textContent = 'Measuring…';
    }
    last = { time: now, sws };
    switches.update(sws);
  }

  await refresh();
  ui.every(2000, () => refresh().catch(() => {}));
}
