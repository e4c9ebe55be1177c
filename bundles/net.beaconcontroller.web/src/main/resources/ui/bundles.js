// Bundles: the OSGi bundles and their states; start, stop, update, install and uninstall them while Beacon runs.
import { h, message, table, searchBox, ApiError } from '/ui/lib.js';

/** The framework and the web server cannot be changed from a page they serve: the console can. */
const FIXED = new Set([0]);

export async function render(el, ui) {
  const status = h('div', { id: 'bundles-status' });
  const list = table([
    { key: 'id', label: 'Id', num: true },
    { key: 'symbolicName', label: 'Symbolic name', render: (b) => h('span', { class: 'mono' }, b.symbolicName) },
    { key: 'name', label: 'Name', hideNarrow: true },
    { key: 'version', label: 'Version', hideNarrow: true },
    { key: 'state', label: 'State', render: (b) => h('span', { class: `state-${b.state}` }, b.state) },
    { key: 'actions', label: 'Actions', sortable: false, render: actions },
  ], { rowKey: (b) => b.symbolicName, caption: 'Bundles' });
  const file = h('input', { type: 'file', accept: '.jar', 'aria-label': 'Bundle jar to install', id: 'install-jar' });
  const install = h('form', {
    class: 'toolbar',
    onsubmit: (e) => {
      e.preventDefault();
      if (!file.files.length) { show(message('error', 'Choose a bundle jar to install.')); return; }
      upload('/wm/beacon/bundles/json', file.files[0], 'Installed').then(() => { file.value = ''; });
    },
  }, h('label', { for: 'install-jar' }, 'Install a bundle: '), file, h('button', { type: 'submit' }, 'Install'));
  el.append(h('h1', {}, 'Bundles'), status, h('div', { class: 'toolbar' }, searchBox('Filter bundles', (t) => list.filter(t))),
    list.el, h('h2', {}, 'Install'), install,
    h('p', { class: 'muted' }, 'A stopped application takes its pages and REST endpoints with it; they return when it starts.'));

  let webBundle = null;

  function actions(b) {
    if (FIXED.has(b.id) || b.id === webBundle) return h('span', { class: 'muted' }, 'console only');
    const active = b.state === 'ACTIVE' || b.state === 'STARTING';
    const updater = h('input', { type: 'file', accept: '.jar', class: 'sr-only', 'aria-label': `Jar to update ${b.symbolicName} from`,
      onchange: () => updater.files.length && upload(`/wm/beacon/bundles/${b.id}/update/json`, updater.files[0], 'Updated') });
    return h('span', { class: 'toolbar' },
      active
        ? h('button', { type: 'button', class: 'secondary', dataset: { action: 'stop' }, onclick: () => act('stop', b) }, 'Stop')
        : h('button', { type: 'button', class: 'secondary', dataset: { action: 'start' }, onclick: () => act('start', b) }, 'Start'),
      h('button', { type: 'button', class: 'secondary', dataset: { action: 'update' }, onclick: () => updater.click() }, 'Update…'),
      updater,
      h('button', { type: 'button', class: 'danger', dataset: { action: 'uninstall' }, onclick: () => {
        if (confirm(`Uninstall ${b.symbolicName}?`)) act('uninstall', b);
      } }, 'Uninstall'));
  }

  function show(box) { status.replaceChildren(box); }

  async function act(action, b) {
    try {
      const result = action === 'uninstall'
        ? await ui.api(`/wm/beacon/bundles/${b.id}/json`, { method: 'DELETE' })
        : await ui.api(`/wm/beacon/bundles/${b.id}/${action}/json`, { method: 'POST' });
      show(message('ok', action === 'uninstall' ? `Uninstalled ${b.symbolicName}.`
        : `${b.symbolicName} is ${result.state}.`));
    } catch (e) {
      show(message('error', `${action} ${b.symbolicName}: ${e.message}`));
    }
    await refresh();
  }

  async function upload(path, jar, verb) {
    const form = new FormData();
    form.append('jar', jar);
    try {
      const result = await ui.api(path, { method: 'POST', body: form });
      show(message('ok', `${verb} ${result.symbolicName} ${result.version} (${result.state}).`));
    } catch (e) {
      show(message('error', e instanceof ApiError ? e.message : String(e)));
    }
    await refresh();
  }

  async function refresh() {
    const bundles = await ui.api('/wm/beacon/bundles/json');
    webBundle = bundles.find((b) => b.symbolicName === 'net.beaconcontroller.web')?.id ?? null;
    if (ui.active) list.update(bundles);
  }

  await refresh();
  ui.on('ui-changed', () => refresh().catch(() => {}));
  ui.every(5000, () => refresh().catch(() => {}));
}
