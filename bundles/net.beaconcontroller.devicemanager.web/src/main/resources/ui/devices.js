// Devices: every host the device manager knows, searchable and sortable, updated as hosts come, move and go.
import { h, fmt, table, searchBox } from '/ui/lib.js';

export async function render(el, ui) {
  const count = h('p', { class: 'muted', id: 'devices-count' });
  const devices = table([
    { key: 'mac', label: 'MAC', value: (d) => d.mac[0], render: (d) => h('span', { class: 'mono' }, d.mac.join(', ')) },
    { key: 'vlan', label: 'VLAN', value: (d) => d.vlan.map((v) => (v === '0x0' ? 'none' : Number(v))).join(', ') },
    { key: 'ipv4', label: 'IPv4', value: (d) => d.ipv4.join(', ') },
    { key: 'switch', label: 'Switch', value: (d) => d.attachmentPoint[0]?.switchDPID ?? '',
      render: (d) => d.attachmentPoint.map((a) => h('a', { href: `#/switches/${a.switchDPID}`, class: 'mono' }, a.switchDPID)) },
    { key: 'port', label: 'Port', num: true, value: (d) => d.attachmentPoint[0]?.port },
    { key: 'lastSeen', label: 'Last seen', value: (d) => -d.lastSeen, render: (d) => fmt.ago(d.lastSeen) },
  ], { rowKey: (d) => d.mac[0], empty: 'No host has been seen yet.', caption: 'Hosts', limit: 500 });
  el.append(h('h1', {}, 'Devices'), h('div', { class: 'toolbar' },
    searchBox('Search MAC, IP, switch', (t) => devices.filter(t))), count, devices.el);

  let pending = false;
  async function refresh() {
    pending = false;
    const list = await ui.api('/wm/device/');
    if (!ui.active) return;
    count.textContent = `${fmt.number(list.length)} host${list.length === 1 ? '' : 's'}`;
    devices.update(list);
  }
  // Bursts of events (a pingall) become one read.
  ui.on(['device-added', 'device-moved', 'device-changed', 'device-removed'], () => {
    if (!pending) { pending = true; ui.later(500, () => refresh().catch(() => {})); }
  });
  await refresh();
  ui.every(10000, () => refresh().catch(() => {}));
}
