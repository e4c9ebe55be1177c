// Firewall: switch it on and off, list its rules in matching order, add one (checked here as the server checks it,
// then by the server) and delete one. Everything the server sends is shown as text, never as markup.
import { h, message, table } from '/ui/lib.js';
import { control, ipv4, ruleForm } from '/ui/forms.js';

const BASE = '/wm/firewall';
const PROTOCOLS = { 1: 'ICMP', 6: 'TCP', 17: 'UDP' };
const TYPES = { 2048: 'IPv4', 2054: 'ARP' };
const MAC = /^([0-9a-fA-F]{1,2}[:-]){5}[0-9a-fA-F]{1,2}$/;
const DPID = /^(([0-9a-fA-F]{2}:){7}[0-9a-fA-F]{2}|(0[xX])?[0-9a-fA-F]{1,16})$/;
const INT32 = 2 ** 31;

/** The POST keys of Floodlight's firewall, as in docs/firewall.md: [key, label, control, hint]. */
const FIELDS = [
  ['priority', 'Priority (smaller first)', 'input', '0'],
  ['action', 'Action', ['ALLOW', 'DENY']],
  ['switchid', 'Switch DPID', 'input', '00:00:00:00:00:00:00:01'],
  ['src-inport', 'In port', 'input', '1'],
  ['src-mac', 'Ethernet source', 'input', '00:00:00:00:00:01'],
  ['dst-mac', 'Ethernet destination', 'input', '00:00:00:00:00:02'],
  ['dl-type', 'Ethernet type', ['', 'ARP', 'IPv4']],
  ['src-ip', 'IPv4 source', 'input', '10.0.0.1/32'],
  ['dst-ip', 'IPv4 destination', 'input', '10.0.0.0/24'],
  ['nw-proto', 'IP protocol', ['', 'TCP', 'UDP', 'ICMP']],
  ['tp-src', 'TCP/UDP source port', 'input', '1024'],
  ['tp-dst', 'TCP/UDP destination port', 'input', '80'],
];

/** What FirewallRules.parse refuses, in the same order, so the user hears of it before anything is sent. */
function problems(v) {
  const found = [];
  const whole = (key, min, max) => {
    if (v[key] && !(/^[+-]?\d+$/.test(v[key]) && Number(v[key]) >= min && Number(v[key]) <= max)) {
      found.push(`${key}: a whole number ${min}..${max}.`);
    }
  };
  const any = (key) => v[key].toUpperCase() === 'ANY';
  for (const key of ['src-ip', 'dst-ip']) {
    if (v[key] && !any(key) && !ipv4(v[key], { mask: 'optional' })) found.push(`${key}: A.B.C.D, A.B.C.D/M or ANY.`);
  }
  const ip = (v['src-ip'] && !any('src-ip')) || (v['dst-ip'] && !any('dst-ip')) || v['nw-proto'];
  if (ip && v['dl-type'] === 'ARP') found.push('IPv4 source, destination and IP protocol need Ethernet type IPv4 (or none).');
  whole('tp-src', 0, 65535);
  whole('tp-dst', 0, 65535);
  if ((v['tp-src'] || v['tp-dst']) && !['TCP', 'UDP'].includes(v['nw-proto'])) found.push('Ports need IP protocol TCP or UDP.');
  whole('priority', -INT32, INT32 - 1);
  if (v.switchid && !DPID.test(v.switchid)) found.push('switchid: a DPID, 00:00:00:00:00:00:00:01 or hex.');
  whole('src-inport', 0, 65535);
  for (const key of ['src-mac', 'dst-mac']) {
    if (v[key] && !any(key) && !MAC.test(v[key])) found.push(`${key}: a MAC address 00:00:00:00:00:01 or ANY.`);
  }
  return found;
}

/** A rule's fields in the words of the POST keys; wildcards left out. */
function match(r) {
  const parts = [];
  if (!r.any_dpid) parts.push(`switchid=${r.dpid}`);
  if (!r.any_in_port) parts.push(`src-inport=${r.in_port}`);
  if (!r.any_dl_src) parts.push(`src-mac=${r.dl_src}`);
  if (!r.any_dl_dst) parts.push(`dst-mac=${r.dl_dst}`);
  if (!r.any_dl_type) parts.push(`dl-type=${TYPES[r.dl_type] ?? r.dl_type}`);
  if (!r.any_nw_src) parts.push(`src-ip=${r.nw_src_prefix}/${r.nw_src_maskbits}`);
  if (!r.any_nw_dst) parts.push(`dst-ip=${r.nw_dst_prefix}/${r.nw_dst_maskbits}`);
  if (!r.any_nw_proto) parts.push(`nw-proto=${PROTOCOLS[r.nw_proto] ?? r.nw_proto}`);
  if (!r.any_tp_src) parts.push(`tp-src=${r.tp_src}`);
  if (!r.any_tp_dst) parts.push(`tp-dst=${r.tp_dst}`);
  return parts.join(' ') || 'everything';
}

export async function render(el, ui) {
  const status = h('div', { id: 'firewall-status' });
  const show = (box) => status.replaceChildren(box);
  const state = h('strong', { id: 'firewall-state' }, '…');
  const toggle = h('button', { type: 'button', id: 'firewall-toggle', class: 'secondary', onclick: () => setEnabled(!enabled) }, '…');
  let enabled = null;

  const editor = ruleForm(ui, {
    id: 'firewall-form', path: `${BASE}/rules/json`, show, problems, refresh,
    controls: FIELDS.map(([key, label, kind, hint]) => control('fw', key, label, kind, { placeholder: hint })),
    submit: 'Add rule', added: (answer) => `Rule ${answer['rule-id']} added.`,
  });

  const rules = table([
    { key: 'order', label: 'Order', num: true },
    { key: 'priority', label: 'Priority', num: true },
    { key: 'action', label: 'Action', render: (r) => h('span', { class: r.action === 'ALLOW' ? 'up' : 'down' }, r.action) },
    { key: 'match', label: 'Matches', render: (r) => h('code', {}, r.match) },
    { key: 'ruleid', label: 'Id', num: true, hideNarrow: true },
    editor.deleteColumn('delete-firewall-rule', (r) => r.ruleid),
  ], { rowKey: (r) => r.ruleid, caption: 'Firewall rules', empty: 'No rule: once on, the firewall drops everything but L2 broadcasts.' });

  el.append(h('h1', {}, 'Firewall'), status,
    h('div', { class: 'toolbar' }, h('span', {}, 'The firewall is ', state, '.'), toggle),
    h('p', { class: 'muted' }, 'On, it judges every packet entering the network: the rule with the smallest priority number that matches decides, and what no rule allows is dropped (L2 broadcasts pass). Off, traffic flows as without it.'),
    h('h2', {}, 'Add a rule'), editor.form,
    h('p', { class: 'muted' }, 'Fields left empty match anything; MACs and IPv4 fields also take ANY. IPv4 fields imply Ethernet type IPv4; ports need TCP or UDP. A rule like an existing one but for its priority is refused.'),
    h('h2', {}, 'Rules, in matching order'), rules.el);

  async function setEnabled(on) {
    toggle.disabled = true;
    try {
      const answer = await ui.api(`${BASE}/module/${on ? 'enable' : 'disable'}/json`, { method: 'PUT' });
      show(message('ok', `${answer.details[0].toUpperCase()}${answer.details.slice(1)}.`));
    } catch (e) {
      show(message('error', e.message));
    }
    // Failed, the button stays disabled until the next periodic read succeeds.
    await refresh().catch(() => {});
  }

  async function refresh() {
    const [list, st] = await Promise.all([ui.api(`${BASE}/rules/json`), ui.api(`${BASE}/module/status/json`)]);
    if (!ui.active) return;
    enabled = st.result === 'firewall enabled';
    state.textContent = enabled ? 'on' : 'off';
    state.className = enabled ? 'up' : '';
    toggle.textContent = enabled ? 'Disable' : 'Enable';
    toggle.disabled = false;
    rules.update(list.map((r, i) => ({ ...r, order: i + 1, match: match(r) })));
  }

  await refresh();
  // Another member of a cluster, or a script, may change the rules: the page follows within seconds.
  ui.every(5000, () => refresh().catch(() => {}));
}
