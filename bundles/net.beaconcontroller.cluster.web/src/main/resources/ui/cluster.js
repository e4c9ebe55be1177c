// Cluster: the members with their load, which member masters each switch, and moving a switch to another member.
import { h, fmt, table, message } from '/ui/lib.js';

export async function render(el, ui) {
  const status = h('div', { role: 'status' });
  const members = table([
    { key: 'address', label: 'Member', value: (m) => m.address,
      render: (m) => h('span', { class: 'mono' }, m.address + (m.local ? ' (this)' : '') + (m.oldest ? ' (oldest)' : '')) },
    { key: 'switches', label: 'Switches', num: true, value: (m) => m.switches },
    { key: 'rate', label: 'PACKET_IN/s', num: true, value: (m) => m.packetInRate, render: (m) => fmt.number(m.packetInRate) },
    { key: 'cpu', label: 'CPU', num: true, value: (m) => m.cpu ?? -1,
      render: (m) => (m.cpu == null ? '–' : `${Math.round(m.cpu * 100)} %`) },
  ], { rowKey: (m) => m.id, caption: 'Members', empty: 'No member yet.' });
  let memberList = [];
  const switches = table([
    { key: 'dpid', label: 'Switch', value: (s) => s.dpid,
      render: (s) => h('a', { href: `#/switches/${s.dpid}`, class: 'mono' }, s.dpid) },
    { key: 'master', label: 'Master', value: (s) => s.address, render: (s) => h('span', { class: 'mono' }, s.address) },
    { key: 'move', label: 'Move to', value: () => '', render: (s) => moveControl(s) },
  ], { rowKey: (s) => s.dpid, caption: 'Masters', empty: 'No switch is connected.' });
  const migrations = table([
    { key: 'switch', label: 'Switch', value: (m) => m.switch, render: (m) => h('span', { class: 'mono' }, m.switch) },
    { key: 'ms', label: 'Took (ms)', num: true, value: (m) => m.ms },
  ], { rowKey: (m) => `${m.switch}-${m.to}-${m.ms}`, caption: 'Migrations started here (latest 100)', empty: 'None yet.' });
  el.append(h('h1', {}, 'Cluster'), status, members.el, switches.el, migrations.el);

  function moveControl(s) {
    const others = memberList.filter((m) => m.id !== s.member);
    const select = h('select', { 'aria-label': `Member to move ${s.dpid} to` },
      ...others.map((m) => h('option', { value: m.address }, m.address)));
    const button = h('button', { type: 'button' }, 'Move');
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const m = await ui.api('/wm/beacon/cluster/migrate/json', { method: 'POST', body: { switch: s.dpid, member: select.value } });
        status.replaceChildren(message('ok', `Switch ${m.switch} moved to ${select.value} in ${m.ms} ms.`));
        await refresh();
      } catch (e) {
        status.replaceChildren(message('error', e.message));
        button.disabled = false;
      }
    });
    return others.length ? h('span', {}, select, ' ', button) : '–';
  }

  async function refresh() {
    const c = await ui.api('/wm/beacon/cluster/json');
    if (!ui.active) return;
    memberList = c.members;
    members.update(c.members);
    switches.update(Object.entries(c.masters).map(([dpid, m]) => ({ dpid, member: m.member, address: m.address })));
    migrations.update(c.migrations.slice().reverse());
  }
  ui.on(['switch-added', 'switch-removed'], () => ui.later(1000, () => refresh().catch(() => {})));
  await refresh();
  ui.every(5000, () => refresh().catch(() => {}));
}
