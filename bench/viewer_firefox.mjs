// Opens a rigsmith report (report.html with its 3D viewer) from a file:// URL in
// Firefox (Debian's firefox-esr) through WebDriver BiDi, Firefox's own remote protocol
// (playwright drives only its patched Firefox builds), and prints what the viewer did:
// whether WebGL came up (or the line saying why the viewer is off), the console errors,
// the poses offered, and the pixels that change around the joint when a pose is set.
//
//   node --experimental-websocket bench/viewer_firefox.mjs report.html [out.json]
//
// bench/viewer_firefox.sh runs it under xvfb-run when that exists (Firefox finds no GL
// without a display), else headless.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [html, outPath] = process.argv.slice(2);
if (!html) {
  console.error('usage: node --experimental-websocket viewer_firefox.mjs report.html [out.json]');
  process.exit(2);
}
const exe = process.env.FIREFOX || 'firefox-esr';
const profile = mkdtempSync(join(tmpdir(), 'rigsmith-ff-'));
writeFileSync(join(profile, 'user.js'), [
  'user_pref("webgl.force-enabled", true);',
  'user_pref("webgl.disable-fail-if-major-performance-caveat", true);',
  'user_pref("datareporting.policy.dataSubmissionEnabled", false);',
  'user_pref("browser.shell.checkDefaultBrowser", false);',
].join('\n'));
const headless = !process.env.DISPLAY;
const ff = spawn(exe, [...(headless ? ['--headless'] : []), '--no-remote', '--profile', profile,
  '--remote-debugging-port=0', '--window-size=1280,1000', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
const url = await new Promise((ok, fail) => {
  let err = '';
  const t = setTimeout(() => fail(new Error('firefox did not start its remote agent: ' + err)), 60000);
  ff.on('error', (e) => { clearTimeout(t); fail(e); });
  ff.stderr.on('data', (d) => {
    err += d;
    const m = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(err);
    if (m) { clearTimeout(t); ok(m[1]); }
  });
});
const ws = new WebSocket(url.replace(/\/?$/, '/session'));
await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });
let next = 1;
const waiting = new Map();
const logs = [];
ws.onmessage = (m) => {
  const msg = JSON.parse(m.data);
  if (msg.id && waiting.has(msg.id)) {
    const [ok, fail] = waiting.get(msg.id);
    waiting.delete(msg.id);
    msg.type === 'error' ? fail(new Error(msg.error + ': ' + msg.message)) : ok(msg.result);
  } else if (msg.method === 'log.entryAdded') {
    logs.push({ level: msg.params.level, text: msg.params.text });
  }
};
const send = (method, params) => new Promise((ok, fail) => {
  const id = next++;
  waiting.set(id, [ok, fail]);
  ws.send(JSON.stringify({ id, method, params }));
});
const out = { browser: exe, headless };
try {
  await send('session.new', { capabilities: {} });
  await send('session.subscribe', { events: ['log.entryAdded'] });
  const tree = await send('browsingContext.getTree', {});
  const context = tree.contexts[0].context;
  const evaluate = async (expression) => {
    const r = await send('script.evaluate', { expression, target: { context }, awaitPromise: true });
    if (r.type === 'exception') throw new Error('page: ' + JSON.stringify(r.exceptionDetails.text));
    return r.result.value;
  };
  await send('browsingContext.navigate', { context, url: pathToFileURL(resolve(html)).href, wait: 'complete' });
  for (let k = 0; k < 600; k++) {
    if (await evaluate('!!(window.rigsmithViewer && window.rigsmithViewer.ready)')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const got = JSON.parse(await evaluate(`(async () => {
    const v = window.rigsmithViewer;
    const r = { ready: v.ready, off: v.off, tables: document.querySelectorAll('table').length };
    if (v.off) return JSON.stringify(r);
    r.poses = v.poses().length;
    const grab = () => {
      const c = document.querySelector('#rs-viewer-canvas canvas');
      const t = document.createElement('canvas'); t.width = c.width; t.height = c.height;
      const g = t.getContext('2d'); g.drawImage(c, 0, 0);
      return { w: c.width, h: c.height, px: g.getImageData(0, 0, c.width, c.height).data };
    };
    const pose = v.poses().find((p) => /elbow/.test(p)) || v.poses()[0];
    if (pose) {
      v.setPose(null); v.view('front');
      const at = v.project(v.boneHead(v.focusBone(pose)));
      const a = grab(); v.setPose(pose); const b = grab();
      let n = 0, hit = 0;
      for (let y = Math.round(at[1] - 40); y < at[1] + 40; y++) for (let x = Math.round(at[0] - 40); x < at[0] + 40; x++) {
        if (x < 0 || y < 0 || x >= a.w || y >= a.h) continue;
        const k = 4 * (y * a.w + x); n++;
        if (Math.abs(a.px[k] - b.px[k]) + Math.abs(a.px[k + 1] - b.px[k + 1]) + Math.abs(a.px[k + 2] - b.px[k + 2]) > 40) hit++;
      }
      r.pose = pose; r.changed_near_joint = n ? hit / n : 0;
    }
    return JSON.stringify(r);
  })()`));
  Object.assign(out, got);
  out.console_errors = logs.filter((l) => l.level === 'error').map((l) => l.text);
} catch (e) {
  out.error = String(e && e.message || e);
  process.exitCode = 1;
} finally {
  try { await send('session.end', {}); } catch (_) { /* closing */ }
  ws.close();
  ff.kill();
  await new Promise((r) => setTimeout(r, 500));
  rmSync(profile, { recursive: true, force: true });
}
const text = JSON.stringify(out, null, 1);
if (outPath) writeFileSync(outPath, text + '\n');
console.log(text);
process.exit(process.exitCode || 0);
