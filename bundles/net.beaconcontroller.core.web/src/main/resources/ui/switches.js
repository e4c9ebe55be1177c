// Switches: the connected switches; per switch its description, ports with live counters, flows and tables.
import { h, fmt, table, searchBox, message, portUp } from '/ui/lib.js';

export async function render(el, ui) {
  return ui.params.length ? detail(el, ui, ui.params[0]) : list(el, ui);
}

async function list(el, ui) {
  const switches = table([
    { key: 'dpid', label: 'DPID', render: (s) => h('a', { href: `#/switches/${s.dpid}`, class: 'mono' }, s.dpid) },
    { key: 'address', label: 'Address' },
    { key: 'connectedSince', label: 'Connected', render: (s) => fmt.ago(s.connectedSince) },
    { key: 'hardware', label: 'Hardware', value: (s) => `${s.manufacturer} ${s.hardware}`, hideNarrow: true },
    { key: 'software', label: 'Software', hideNarrow: true },
    { key: 'ports', label: 'Ports', num: true, value: (s) => s.ports.length },
    { key: 'messagesIn', label: 'Messages in', num: true, render: (s) => fmt.number(s.messagesIn), hideNarrow: true },
    { key: 'messagesOut', label: 'Messages out', num: true, render: (s) => fmt.number(s.messagesOut), hideNarrow: true },
  ], { rowKey: (s) => s.dpid, empty: 'No switch is connected.', caption: 'Connected switches' });
  el.append(h('h1', {}, 'Switches'), h('div', { class: 'toolbar' }, searchBox('Filter switches', (t) => switches.filter(t))),
    switches.el);
  const refresh = async () => { const s = await ui.api('/wm/beacon/switches/json'); if (ui.active) switches.update(s); };
  await refresh();
  ui.on(['switch-added', 'switch-removed'], () => refresh().catch(() => {}));
  ui.every(5000, () => refresh().catch(() => {}));
}

async function detail(el, ui, dpid) {
  const heading = h('h1', {}, 'Switch ', h('span', { class: 'mono' }, dpid));
  const notice = h('div');
  const description = h('dl', { class: 'cards' });
  const panel = h('div', { role: 'tabpanel', id: 'switch-panel' });
  const tabs = ['Ports', 'Flows', 'Tables'];
  let tab = 'Ports';
  let connected = true;
  const tabBar = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Switch details' });
  el.append(h('p', {}, h('a', { href: '#/switches' }, '← All switches')), heading, notice, description, tabBar, panel);

  const drawTabs = () => tabBar.replaceChildren(...tabs.map((t) => h('button', {
    type: 'button', role: 'tab', 'aria-selected': String(t === tab), 'aria-controls': 'switch-panel', dataset: { tab: t.toLowerCase() },
    onclick: () => { tab = t; drawTabs(); show(); },
    onkeydown: (e) => {
      const i = tabs.indexOf(t) + (e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0);
      if (i !== tabs.indexOf(t) && i >= 0 && i < tabs.length) { tab = tabs[i]; drawTabs(); show(); tabBar.children[i].focus(); }
    },
  }, t)));

  const sw = (await ui.api('/wm/beacon/switches/json')).find((s) => s.dpid === dpid);
  if (!sw) {
    notice.replaceChildren(message('error', `Switch ${dpid} is not connected.`));
    return;
  }
  const item = (label, value) => h('div', { class: 'card' }, h('div', { class: 'label' }, label), h('div', { class: 'value mono' }, value));
  description.replaceChildren(item('Manufacturer', sw.manufacturer), item('Hardware', sw.hardware),
    item('Software', sw.software), item('Address', sw.address), item('Connected', fmt.time(sw.connectedSince)),
    item('I/O thread', sw.ioThread));
  drawTabs();

  ui.on('switch-removed', (s) => {
    if (s?.switchDPID !== dpid) return;
    connected = false;
    notice.replaceChildren(message('error', `Switch ${dpid} disconnected.`));
  });
  ui.on('switch-added', (s) => {
    if (s?.switchDPID !== dpid) return;
    connected = true;
    notice.replaceChildren();
    show();
  });

  // Each tab refreshes itself; only the one on screen asks the switch.
  let ports = sw.ports;
  let previous = null;
  const portTable = table([
    { key: 'portNumber', label: 'Port', num: true, value: (p) => (p.portNumber === 'local' ? 65534 : Number(p.portNumber)),
      render: (p) => p.portNumber },
    { key: 'name', label: 'Name' },
    { key: 'up', label: 'State', value: (p) => (portUp(p) ? 'up' : 'down'), render: (p) => h('span', { class: portUp(p) ? 'up' : 'down' }, portUp(p) ? 'up' : 'down') },
    { key: 'hardwareAddress', label: 'MAC', render: (p) => h('span', { class: 'mono' }, p.hardwareAddress), hideNarrow: true },
    { key: 'rxRate', label: 'Rx packets', num: true, render: (p) => fmt.rate(p.rxRate) },
    { key: 'txRate', label: 'Tx packets', num: true, render: (p) => fmt.rate(p.txRate) },
    { key: 'receiveBytes', label: 'Rx bytes', num: true, render: (p) => fmt.bytes(p.receiveBytes) },
    { key: 'transmitBytes', label: 'Tx bytes', num: true, render: (p) => fmt.bytes(p.transmitBytes) },
    { key: 'errors', label: 'Errors', num: true, render: (p) => fmt.number(p.errors), hideNarrow: true },
    { key: 'dropped', label: 'Dropped', num: true, render: (p) => fmt.number(p.dropped), hideNarrow: true },
  ], { rowKey: (p) => p.portNumber, caption: 'Ports', empty: 'The switch has no ports.' });

  async function refreshPorts() {
    const [infos, stats] = await Promise.all([ui.api('/wm/beacon/switches/json'), ui.api(`/wm/core/switch/${dpid}/port/json`)]);
    ports = infos.find((s) => s.dpid === dpid)?.ports ?? ports;
    const now = performance.now();
    const counters = new Map((stats.port_reply?.[0]?.port ?? []).map((p) => [p.portNumber, p]));
    const before = previous;
    previous = { time: now, counters };
    const rows = ports.map((p) => {
      const c = counters.get(p.portNumber) ?? {};
      const b = before?.counters.get(p.portNumber);
      const seconds = before ? (now - before.time) / 1000 : 0;
      const n = (k) => Number(c[k] ?? 0);
      return { ...p, receiveBytes: n('receiveBytes'), transmitBytes: n('transmitBytes'),
        errors: n('receiveErrors') + n('transmitErrors'), dropped: n('receiveDropped') + n('transmitDropped'),
        rxRate: b && seconds > 0 ? Math.max(0, n('receivePackets') - Number(b.receivePackets)) / seconds : undefined,
        txRate: b && seconds > 0 ? Math.max(0, n('transmitPackets') - Number(b.transmitPackets)) / seconds : undefined };
    });
    if (ui.active && tab === 'Ports') portTable.update(rows);
  }

  const flowStatus = h('div');
  const flowTable = table([
    { key: 'priority', label: 'Priority', num: true },
    { key: 'owner', label: 'Owner' },
    { key: 'match', label: 'Match', render: (f) => h('code', {}, f.match) },
    { key: 'actions', label: 'Actions', render: (f) => h('code', {}, f.actions) },
    { key: 'packets', label: 'Packets', num: true, render: (f) => fmt.number(f.packets) },
    { key: 'bytes', label: 'Bytes', num: true, render: (f) => fmt.bytes(f.bytes), hideNarrow: true },
    { key: 'durationSeconds', label: 'Age', num: true, render: (f) => fmt.duration(f.durationSeconds * 1000), hideNarrow: true },
    { key: 'idleTimeout', label: 'Idle / hard timeout', num: true, render: (f) => `${f.idleTimeout} / ${f.hardTimeout}`, hideNarrow: true },
    { key: 'cookie', label: 'Cookie', hideNarrow: true, render: (f) => h('code', {}, f.cookie) },
    { key: 'delete', label: '', sortable: false, render: (f) => h('button', {
      type: 'button', class: 'danger', dataset: { action: 'delete-flow' }, 'aria-label': `Delete flow ${f.match} at priority ${f.priority}`,
      onclick: () => deleteFlow(f) }, 'Delete') },
  ], { rowKey: (f) => `${f.priority} ${f.match}`, caption: 'Flows', empty: 'The switch has no flows.', sortBy: 'priority' });

  async function refreshFlows() {
    const flows = await ui.api(`/wm/beacon/switch/${dpid}/flows/json`);
    if (ui.active && tab === 'Flows') flowTable.update(flows);
  }

  async function deleteFlow(f) {
    try {
      await ui.api(`/wm/beacon/switch/${dpid}/flows/json`, { method: 'DELETE', body: { match: f.match, priority: f.priority } });
      flowStatus.replaceChildren(message('ok', `Deleted the flow ${f.match} at priority ${f.priority}.`));
    } catch (e) {
      flowStatus.replaceChildren(message('error', e.message));
    }
    await refreshFlows();
  }

  const tableTable = table([
    { key: 'tableId', label: 'Table', num: true, value: (t) => Number(t.tableId) },
    { key: 'name', label: 'Name' },
    { key: 'activeCount', label: 'Active flows', num: true, value: (t) => Number(t.activeCount) },
    { key: 'lookUpCount', label: 'Lookups', num: true, value: (t) => Number(t.lookUpCount) },
    { key: 'matchCount', label: 'Matches', num: true, value: (t) => Number(t.matchCount) },
    { key: 'maxEntries', label: 'Capacity', num: true, value: (t) => Number(t.maxEntries) },
  ], { rowKey: (t) => t.tableId, caption: 'Flow tables' });

  async function refreshTables() {
    const t = await ui.api(`/wm/core/switch/${dpid}/table/json`);
    if (ui.active && tab === 'Tables') tableTable.update(t.table ?? []);
  }

  const views = {
    Ports: { el: portTable.el, refresh: refreshPorts, period: 2000 },
    Flows: { el: h('div', {}, flowStatus, h('div', { class: 'toolbar' }, searchBox('Filter flows', (t) => flowTable.filter(t)),
      h('button', { type: 'button', class: 'secondary', onclick: () => refreshFlows().catch(() => {}) }, 'Refresh')), flowTable.el),
      refresh: refreshFlows, period: 5000 },
    Tables: { el: tableTable.el, refresh: refreshTables, period: 5000 },
  };
  let due = 0;
  function show() {
    panel.replaceChildren(views[tab].el);
    due = 0;
    tick();
  }
  async function tick() {
    if (!connected || performance.now() < due) return;
    due = performance.now() + views[tab].period;
    try {
      await views[tab].refresh();
    } catch (e) {
      if (connected && ui.active) notice.replaceChildren(message('error', e.message));
    }
  }
  show();
  ui.every(1000, tick);
}
