// Forms of rules that an app keeps behind one REST path, added by POST and deleted by DELETE (the firewall's, the
// ACL's): the page checks what it can before anything is sent, and shows the server's own words when it refuses.
import { h, message } from '/ui/lib.js';

/**
 * A labelled control named after its REST key. kind: 'input', or the options of a select ('' shows as "any").
 * The id is `${prefix}-${name}`, for the label and for tests.
 */
export function control(prefix, name, label, kind, attrs = {}) {
  const id = `${prefix}-${name}`;
  const field = Array.isArray(kind)
    ? h('select', { name, id }, ...kind.map((o) => h('option', { value: o }, o || 'any')))
    : h('input', { name, id, autocomplete: 'off', ...attrs });
  return h('label', { for: id }, label, field);
}

/**
 * An IPv4 address A.B.C.D with a prefix length /M (0..32): mask 'required', 'optional' (none means /32) or 'none'.
 * Returns {address, bits}, or null when the text is not one.
 */
export function ipv4(text, { mask = 'optional' } = {}) {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(text);
  if (!m || (m[5] === undefined ? mask === 'required' : mask === 'none')) return null;
  const octets = m.slice(1, 5).map(Number);
  const bits = m[5] === undefined ? 32 : Number(m[5]);
  if (octets.some((o) => o > 255) || bits > 32) return null;
  return { address: octets.join('.'), bits };
}

/**
 * The add form and the Delete buttons of such rules. problems(values) lists what is wrong in the terms of the server's
 * checks, and nothing is sent while it lists anything; refresh() reads the rules again after every change; show(box)
 * puts a message where the page wants it; added(answer) words a success.
 */
export function ruleForm(ui, { id, path, controls, problems, show, refresh, submit, added }) {
  const form = h('form', { class: 'grid', id, novalidate: true, onsubmit: send }, ...controls,
    h('div', { class: 'wide' }, h('button', { type: 'submit' }, submit)));

  // A failed read keeps the message of the change; the page's next periodic read tries again.
  const reread = () => refresh().catch(() => {});

  function values() {
    const v = {};
    for (const c of form.elements) if (c.name) v[c.name] = c.value.trim();
    return v;
  }

  async function send(e) {
    e.preventDefault();
    const v = values();
    const found = problems(v);
    if (found.length) {
      show(h('div', { class: 'message error', role: 'alert' }, h('strong', {}, 'Not added: '), found.join(' ')));
      return;
    }
    try {
      // Empty fields are left out: the server reads an absent key as "any".
      const answer = await ui.api(path, { method: 'POST', body: Object.fromEntries(Object.entries(v).filter(([, x]) => x)) });
      show(message('ok', added(answer)));
      form.reset();
    } catch (err) {
      show(message('error', `Not added: ${err.message}`));
    }
    await reread();
  }

  async function remove(body) {
    try {
      show(message('ok', (await ui.api(path, { method: 'DELETE', body })).status));
    } catch (err) {
      show(message('error', `Not deleted: ${err.message}`));
    }
    await reread();
  }

  /** A column of Delete buttons for a table of the rules; both Floodlight APIs delete by {"ruleid": "<id>"}. */
  function deleteColumn(action, id) {
    return { key: 'delete', label: '', sortable: false, render: (r) => h('button', {
      type: 'button', class: 'danger', dataset: { action }, 'aria-label': `Delete rule ${id(r)}`,
      onclick: () => remove({ ruleid: String(id(r)) }) }, 'Delete') };
  }

  return { form, deleteColumn };
}
