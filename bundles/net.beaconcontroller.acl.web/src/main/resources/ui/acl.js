// ACL: its rules by id (an earlier rule wins), add one (checked here as the server checks it, then by the server) and
// delete one. Everything the server sends is shown as text, never as markup.
import { h, table } from '/ui/lib.js';
import { control, ipv4, ruleForm } from '/ui/forms.js';

const BASE = '/wm/acl';
const PROTOCOLS = { 1: 'ICMP', 6: 'TCP', 17: 'UDP' };

/** The POST keys of Floodlight's ACL (docs/firewall.md): [key, label, control, hint]. */
const FIELDS = [
  ['src-ip', 'IPv4 source (A.B.C.D/M)', 'input', '10.0.0.1/32'],
  ['dst-ip', 'IPv4 destination (A.B.C.D/M)', 'input', '10.0.0.0/24'],
  ['nw-proto', 'IP protocol', ['', 'TCP', 'UDP', 'ICMP']],
  ['tp-dst', 'TCP/UDP destination port', 'input', '80'],
  ['action', 'Action', ['deny', 'allow']],
];

/** What AclRules.parse refuses, in Floodlight's words where it has some. */
function problems(v) {
  const found = [];
  if (!v['src-ip'] && !v['dst-ip']) found.push('Either nw_src or nw_dst must be specified.');
  for (const key of ['src-ip', 'dst-ip']) {
    if (v[key] && !ipv4(v[key], { mask: 'required' })) found.push(`${key}: an IPv4 prefix A.B.C.D/M (M 0..32).`);
  }
  if (v['tp-dst']) {
    if (!/^[+-]?\d+$/.test(v['tp-dst']) || Number(v['tp-dst']) > 65535 || Number(v['tp-dst']) < 0) {
      found.push('tp-dst: a port 0..65535.');
    } else if (Number(v['tp-dst']) !== 0 && !['TCP', 'UDP'].includes(v['nw-proto'])) {
      found.push('tp-dst needs IP protocol TCP or UDP.');
    }
  }
  return found;
}

export async function render(el, ui) {
  const status = h('div', { id: 'acl-status' });
  const show = (box) => status.replaceChildren(box);
  const editor = ruleForm(ui, {
    id: 'acl-form', path: `${BASE}/rules/json`, show, problems, refresh,
    controls: FIELDS.map(([key, label, kind, hint]) => control('acl', key, label, kind, { placeholder: hint })),
    submit: 'Add rule', added: (answer) => answer.status,
  });

  const rules = table([
    { key: 'id', label: 'Id', num: true },
    { key: 'nw_src', label: 'Source', render: (r) => h('span', { class: 'mono' }, r.nw_src ?? 'any') },
    { key: 'nw_dst', label: 'Destination', render: (r) => h('span', { class: 'mono' }, r.nw_dst ?? 'any') },
    { key: 'proto', label: 'Protocol', value: (r) => (r.nw_proto ? PROTOCOLS[r.nw_proto] ?? String(r.nw_proto) : 'any') },
    { key: 'tp_dst', label: 'Port', num: true, render: (r) => (r.tp_dst ? r.tp_dst : 'any') },
    { key: 'action', label: 'Action', render: (r) => h('span', { class: r.action === 'ALLOW' ? 'up' : 'down' }, r.action) },
    editor.deleteColumn('delete-acl-rule', (r) => r.id),
  ], { rowKey: (r) => r.id, caption: 'ACL rules', empty: 'No rule: everything is allowed.' });

  el.append(h('h1', {}, 'ACL'), status,
    h('p', { class: 'muted' }, 'Everything is allowed but what a DENY rule names; DENY rules become flows on the switches of the source hosts. The rule with the smaller id wins; an ALLOW rule makes an exception in a later DENY rule.'),
    h('h2', {}, 'Add a rule'), editor.form,
    h('p', { class: 'muted' }, 'At least a source or a destination, each with its prefix length. A rule that an earlier one already covers is refused.'),
    h('h2', {}, 'Rules'), rules.el);

  async function refresh() {
    const list = await ui.api(`${BASE}/rules/json`);
    if (ui.active) rules.update(list);
  }

  await refresh();
  // Another member of a cluster, or a script, may change the rules: the page follows within seconds.
  ui.every(5000, () => refresh().catch(() => {}));
}
