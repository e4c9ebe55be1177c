// Static flows: add (a form checked here and again by the server), list and delete the flows kept across restarts.
import { h, message, table, searchBox } from '/ui/lib.js';

const MAC = '([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}';
const IP = '(\\d{1,3}\\.){3}\\d{1,3}(/\\d{1,2})?';
const NUM = '(0x[0-9a-fA-F]+|\\d+)';

/** Floodlight's keys, in the form's order: [key, label, pattern, hint]. */
const FIELDS = [
  ['in_port', 'In port', '\\d+|local', '1'],
  ['eth_src', 'Ethernet source', MAC, '00:00:00:00:00:01'],
  ['eth_dst', 'Ethernet destination', MAC, '00:00:00:00:00:02'],
  ['eth_type', 'Ethernet type', NUM, '0x800'],
  ['eth_vlan_vid', 'VLAN', NUM, '10'],
  ['ip_proto', 'IP protocol', NUM, '6'],
  ['ipv4_src', 'IPv4 source', IP, '10.0.0.1'],
  ['ipv4_dst', 'IPv4 destination', IP, '10.0.0.0/24'],
  ['tp_src', 'Transport source port', '\\d+', '80'],
  ['tp_dst', 'Transport destination port', '\\d+', '443'],
];

export async function render(el, ui) {
  const status = h('div', { id: 'static-flows-status' });
  const switchList = h('datalist', { id: 'static-flow-switches' });
  const input = (name, label, attrs = {}) => {
    const field = h('input', { name, id: `sf-${name}`, ...attrs });
    return [field, h('label', { for: `sf-${name}` }, label, field)];
  };
  const [nameInput, nameLabel] = input('name', 'Name', { required: true, pattern: '[A-Za-z0-9_.:\\-]+', placeholder: 'web-block' });
  const [switchInput, switchLabel] = input('switch', 'Switch DPID', {
    required: true, list: 'static-flow-switches', pattern: '([0-9a-fA-F]{2}:){7}[0-9a-fA-F]{2}|\\d+',
    placeholder: '00:00:00:00:00:00:00:01' });
  const [priorityInput, priorityLabel] = input('priority', 'Priority', { type: 'number', min: 0, max: 65535, value: 32768 });
  const matchFields = FIELDS.map(([key, label, pattern, hint]) => input(key, label, { pattern, placeholder: hint }));
  const [actionsInput, actionsLabel] = input('actions', 'Actions (empty: drop)', { placeholder: 'output=2', class: 'mono' });
  const [idleInput, idleLabel] = input('idle_timeout', 'Idle timeout (s)', { type: 'number', min: 0, max: 65535, value: 0 });
  const [hardInput, hardLabel] = input('hard_timeout', 'Hard timeout (s)', { type: 'number', min: 0, max: 65535, value: 0 });
  const active = h('input', { type: 'checkbox', name: 'active', id: 'sf-active', checked: true });
  const form = h('form', { class: 'grid', id: 'static-flow-form', novalidate: true, onsubmit: submit },
    nameLabel, switchLabel, priorityLabel, ...matchFields.map(([, l]) => l), h('div', { class: 'wide' }, actionsLabel),
    idleLabel, hardLabel, h('label', { class: 'check', for: 'sf-active' }, active, ' Active'),
    h('div', { class: 'wide' }, h('button', { type: 'submit' }, 'Add flow')));

  const flows = table([
    { key: 'switch', label: 'Switch', render: (f) => h('a', { href: `#/switches/${f.switch}`, class: 'mono' }, f.switch) },
    { key: 'name', label: 'Name' },
    { key: 'priority', label: 'Priority', num: true, value: (f) => Number(f.priority) },
    { key: 'match', label: 'Match', render: (f) => h('code', {}, f.match) },
    { key: 'actions', label: 'Actions', render: (f) => h('code', {}, f.actions) },
    { key: 'active', label: 'Active' },
    { key: 'delete', label: '', sortable: false, render: (f) => h('button', {
      type: 'button', class: 'danger', dataset: { action: 'delete-static-flow' }, 'aria-label': `Delete ${f.name}`,
      onclick: () => remove(f.name) }, 'Delete') },
  ], { rowKey: (f) => f.name, caption: 'Static flows', empty: 'No static flow is set.' });

  el.append(h('h1', {}, 'Static flows'), status, h('h2', {}, 'Add a flow'), switchList, form,
    h('p', { class: 'muted' }, 'Fields left empty match anything. IPv4 fields need Ethernet type 0x800, transport ports need an IP protocol. A name in use is replaced.'),
    h('h2', {}, 'Flows'), h('div', { class: 'toolbar' }, searchBox('Filter static flows', (t) => flows.filter(t))), flows.el);

  const show = (box) => status.replaceChildren(box);

  /** The checks a user can fix before anything is sent; the server checks everything again. */
  function problems() {
    const found = [];
    for (const field of form.querySelectorAll('input')) {
      if (!field.checkValidity()) found.push(`${field.labels[0]?.firstChild?.textContent ?? field.name}: ${field.validationMessage}`);
    }
    const v = (k) => form.elements[k].value.trim();
    const ethType = v('eth_type').toLowerCase();
    if ((v('ipv4_src') || v('ipv4_dst') || v('ip_proto')) && !['0x800', '2048', '0x0800'].includes(ethType)) {
      found.push('IPv4 fields and IP protocol need Ethernet type 0x800.');
    }
    if ((v('tp_src') || v('tp_dst')) && !v('ip_proto')) found.push('Transport ports need an IP protocol (6 TCP, 17 UDP).');
    return found;
  }

  async function submit(e) {
    e.preventDefault();
    const found = problems();
    if (found.length) {
      show(h('div', { class: 'message error', role: 'alert' }, h('strong', {}, 'Not added: '), found.join(' ')));
      return;
    }
    const body = {};
    for (const field of form.querySelectorAll('input[name]')) {
      if (field.type === 'checkbox') body[field.name] = String(field.checked);
      else if (field.value.trim() !== '') body[field.name] = field.value.trim();
    }
    try {
      const answer = await ui.api('/wm/staticflowpusher/json', { method: 'POST', body });
      show(message('ok', `${body.name}: ${answer.status}`));
      nameInput.value = '';
    } catch (err) {
      show(message('error', `Not added: ${err.message}`));
    }
    await refresh();
  }

  async function remove(name) {
    try {
      const answer = await ui.api('/wm/staticflowpusher/json', { method: 'DELETE', body: { name } });
      show(message('ok', answer.status));
    } catch (err) {
      show(message('error', err.message));
    }
    await refresh();
  }

  async function refresh() {
    const [listed, switches] = await Promise.all([ui.api('/wm/staticflowpusher/list/all/json'),
      ui.api('/wm/core/controller/switches/json')]);
    if (!ui.active) return;
    switchList.replaceChildren(...switches.map((s) => h('option', { value: s.switchDPID })));
    const rows = [];
    for (const [dpid, entries] of Object.entries(listed)) {
      for (const entry of entries) {
        for (const [name, f] of Object.entries(entry)) {
          rows.push({ switch: dpid, name, priority: f.priority, active: f.active,
            match: Object.entries(f.match ?? {}).map(([k, v]) => `${k}=${v}`).join(',') || 'any',
            actions: f.actions?.actions ?? 'drop' });
        }
      }
    }
    flows.update(rows);
  }

  await refresh();
  ui.on(['switch-added', 'switch-removed'], () => refresh().catch(() => {}));
}
