// Opens a rigsmith report (report.html with its 3D viewer) from a file:// URL in
// headless Chromium (Debian's package, driven by playwright-core) and measures what
// the viewer does, through the page's test hook (window.rigsmithViewer) and the
// pixels it renders:
//
//   node scripts/check-viewer.mjs report.html out.json [--pose NAME] [--weights BONE [--weights-at F]]
//        [--check REGEX] [--screenshot viewer.png] [--no-webgl] [--positions]
//        [--control NAME]
//
// out.json holds: console errors, whether the viewer is off (and why), the pixels that
// changed around the joint when the pose button is clicked (and around a control
// region), the weight view's colours around the bone (and its mirror), the checks the
// page links, and with --positions the posed vertex positions three.js computes for
// every pose (for comparing with the review's own skinning), and when the page plays a
// motion, the pixels two frames of it change. --control NAME moves that control's
// slider (the control rig's FK/IK switch or foot roll) from its first step to its last
// and records the pixels that change around the bone it moves, the positions at every
// step and the slider's range. --check picks the failed check whose link
// is clicked (the first whose id matches REGEX; default the first deform check). With --no-webgl the
// browser starts with WebGL disabled and the script records what the page says.
//
// Exit 2 when no browser is found (the message says so), 1 on a page error.
import { chromium } from 'playwright-core';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const valued = ['--pose', '--weights', '--weights-at', '--screenshot', '--check', '--control'];
const [html, outPath] = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && valued.includes(args[i - 1])));
if (!html || !outPath) {
  console.error('usage: node check-viewer.mjs report.html out.json [--pose NAME] [--weights BONE [--weights-at F]] [--screenshot PNG] [--no-webgl] [--positions]');
  process.exit(2);
}
const candidates = [process.env.RIGSMITH_CHROMIUM, '/usr/bin/chromium', '/usr/lib/chromium/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(Boolean);
const exe = candidates.find((p) => existsSync(p));
if (!exe) {
  console.error('error: chromium not found (apt-get install chromium)');
  process.exit(2);
}
const launchArgs = ['--no-sandbox', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--hide-scrollbars'];
if (flag('--no-webgl')) launchArgs.push('--disable-webgl', '--disable-3d-apis');
else launchArgs.push('--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist');

const browser = await chromium.launch({ executablePath: exe, headless: true, args: launchArgs });
const out = { browser: exe, console_errors: [], page_errors: [] };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.on('console', (m) => { if (m.type() === 'error') out.console_errors.push(m.text()); });
  page.on('pageerror', (e) => out.page_errors.push(String(e)));
  await page.goto(pathToFileURL(resolve(html)).href);
  await page.waitForFunction(() => window.rigsmithViewer && window.rigsmithViewer.ready, null, { timeout: 120000 });
  out.off = await page.evaluate(() => window.rigsmithViewer.off);
  out.off_text = await page.evaluate(() => { const p = document.getElementById('rs-viewer-off'); return p && !p.hidden ? p.textContent : null; });
  out.tables = await page.evaluate(() => document.querySelectorAll('table').length);
  out.sheets = await page.evaluate(() => [...document.querySelectorAll('.sheets img')].filter((i) => i.naturalWidth > 0).length);
  if (out.off) {
    writeFileSync(outPath, JSON.stringify(out));
    process.exit(0);
  }
  await page.evaluate(() => document.getElementById('viewer').scrollIntoView());
  out.poses = await page.evaluate(() => window.rigsmithViewer.poses());
  out.checks = await page.evaluate(() => window.rigsmithViewer.checks());
  out.links = await page.evaluate(() => document.querySelectorAll('a.rs-view').length);
  out.info = await page.evaluate(() => document.getElementById('rs-viewer-info').textContent);
  out.side = await page.evaluate(() => document.getElementById('rs-viewer-side').textContent);

  // Pixels of the viewer's canvas (its drawing buffer, kept between frames), held in
  // the page; measures over a square of half-side r around a point.
  await page.evaluate(() => {
    const shots = {};
    window.__check = {
      grab(name) {
        const c = document.querySelector('#rs-viewer-canvas canvas');
        const t = document.createElement('canvas');
        t.width = c.width; t.height = c.height;
        const g = t.getContext('2d');
        g.drawImage(c, 0, 0);
        shots[name] = { w: c.width, h: c.height, px: g.getImageData(0, 0, c.width, c.height).data };
      },
      // Share of pixels in the square that pass `test`: 'changed' (between shots a and b),
      // 'warm' (red well above blue, in a), 'lit' (the heat map's green to red, a weight
      // above about 0.3, in a) or 'red' (highlight red, in a).
      share(test, a, b, at, r) {
        const A = shots[a], B = shots[b];
        let n = 0, hit = 0;
        for (let y = Math.max(0, Math.round(at[1] - r)); y < Math.min(A.h, Math.round(at[1] + r)); y++) {
          for (let x = Math.max(0, Math.round(at[0] - r)); x < Math.min(A.w, Math.round(at[0] + r)); x++) {
            const k = 4 * (y * A.w + x), p = A.px;
            n++;
            if (test === 'changed' ? Math.abs(p[k] - B.px[k]) + Math.abs(p[k + 1] - B.px[k + 1]) + Math.abs(p[k + 2] - B.px[k + 2]) > 40
              : test === 'warm' ? p[k] - p[k + 2] > 80
              : test === 'lit' ? p[k] + p[k + 1] - 2 * p[k + 2] > 60
              : p[k] > 180 && p[k] - p[k + 1] > 100 && p[k] - p[k + 2] > 100) hit++;
          }
        }
        return n ? hit / n : 0;
      },
    };
  });
  // After two animation frames: whatever the last input asked for is drawn.
  const grab = (name) => page.evaluate((n) => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(window.__check.grab(n))))), name);
  const share = (test, a, b, at, r) => at ? page.evaluate((x) => window.__check.share(...x), [test, a, b, at, r]) : null;
  const mirror = (name) => name.replace(/_l$/, '_R').replace(/_r$/, '_l').replace(/_R$/, '_r').replace(/\.L$/, '.X').replace(/\.R$/, '.L').replace(/\.X$/, '.R');

  // 1. Clicking a pose changes the pixels around its joint (and not around the mirror joint).
  const pose = opt('--pose', out.poses.find((p) => /elbow/.test(p)) || out.poses[0]);
  if (pose) {
    await page.evaluate(() => { window.rigsmithViewer.setPose(null); window.rigsmithViewer.view('front'); });
    const joint = await page.evaluate((p) => window.rigsmithViewer.focusBone(p), pose);
    const at = await page.evaluate((b) => window.rigsmithViewer.project(window.rigsmithViewer.boneHead(b)), joint);
    const other = await page.evaluate((b) => { const h = window.rigsmithViewer.boneHead(b); return h && window.rigsmithViewer.project(h); }, mirror(joint));
    await grab('before');
    await page.click(`button[data-pose="${pose}"]`);
    await grab('after');
    out.pose_click = {
      pose, joint, at, mirror: mirror(joint), mirror_at: other,
      changed_near_joint: await share('changed', 'before', 'after', at, 40),
      changed_near_mirror: await share('changed', 'before', 'after', other, 40),
      state_pose: await page.evaluate(() => window.rigsmithViewer.state.pose),
    };
  }

  // 2. The weight view of a bone colours it (warm), not its mirror.
  const bone = opt('--weights', 'upperarm_l');
  await page.evaluate(() => { window.rigsmithViewer.setPose(null); window.rigsmithViewer.view('front'); });
  // Sampled at the fraction --weights-at of the bone from its head (default its middle).
  const along = Number(opt('--weights-at', '0.5'));
  const mid = (b) => page.evaluate(([b, f]) => {
    const v = window.rigsmithViewer;
    const h = v.boneHead(b), t = v.boneTail(b);
    if (!h || !t) return null;
    return v.project([0, 1, 2].map((k) => h[k] + f * (t[k] - h[k])));
  }, [b, along]);
  const bm = await mid(bone), mm = await mid(mirror(bone));
  if (bm) {
    await grab('before');
    await page.selectOption('#rs-viewer-weights', { label: bone });
    await grab('after');
    out.weights = {
      bone, at: bm, mirror: mirror(bone), mirror_at: mm,
      warm_before: await share('warm', 'before', null, bm, 8),
      warm_after: await share('warm', 'after', null, bm, 8),
      warm_mirror_after: await share('warm', 'after', null, mm, 8),
      lit_before: await share('lit', 'before', null, bm, 8),
      lit_after: await share('lit', 'after', null, bm, 8),
      lit_mirror_after: await share('lit', 'after', null, mm, 8),
    };
    await page.selectOption('#rs-viewer-weights', { value: '-1' });
  }

  // 3. A failed check's link poses its pose and paints its offending vertices red.
  const linked = await page.evaluate((re) => {
    const a = [...document.querySelectorAll('a.rs-view')].map((x) => x.dataset.check);
    return a.find((id) => new RegExp(re).test(id)) || (re === '^deform\\.' ? a[0] : null) || null;
  }, opt('--check', '^deform\\.'));
  if (linked) {
    await page.evaluate(() => window.rigsmithViewer.view('front'));
    await grab('before');
    await page.click(`a.rs-view[data-check="${linked}"]`);
    await grab('after');
    out.check_link = {
      id: linked,
      state_check: await page.evaluate(() => window.rigsmithViewer.state.check && window.rigsmithViewer.state.check.id),
      state_pose: await page.evaluate(() => window.rigsmithViewer.state.pose),
      marked: await page.evaluate(() => window.rigsmithViewer.state.check && window.rigsmithViewer.state.check.marked_total),
      red_before: await share('red', 'before', null, [0, 0], 1e4),
      red_after: await share('red', 'after', null, [0, 0], 1e4),
      changed: await share('changed', 'before', 'after', [0, 0], 1e4),
    };
  }

  // 3b. The motion the page carries (the chains under a walk): two frames differ.
  out.motion = await page.evaluate(() => { const m = document.getElementById('rs-viewer-play'); return m ? m.textContent : null; });
  if (out.motion) {
    const n = await page.evaluate(() => window.rigsmithViewer.motionFrames ? window.rigsmithViewer.motionFrames() : 0);
    await page.evaluate(() => { window.rigsmithViewer.setPose(null); window.rigsmithViewer.view('side'); });
    await page.evaluate(() => window.rigsmithViewer.motionFrame(0));
    await grab('m0');
    await page.evaluate((k) => window.rigsmithViewer.motionFrame(k), Math.floor(n / 2));
    await grab('m1');
    out.motion_frames = n;
    out.motion_changed = await share('changed', 'm0', 'm1', [0, 0], 1e4);
    await page.evaluate(() => window.rigsmithViewer.setPose(null));
  }

  // 3c. A control of the control rig: its slider from the first step to the last moves
  // the pixels around its bone; the positions at every step.
  out.controls = await page.evaluate(() => window.rigsmithViewer.controls ? window.rigsmithViewer.controls() : []);
  out.control_sliders = await page.evaluate(() => document.querySelectorAll('input[data-control]').length);
  const ctlName = opt('--control');
  if (ctlName) {
    const c = out.controls.find((x) => x.name === ctlName);
    if (!c) throw new Error(`no control ${ctlName} in the page (it has ${out.controls.map((x) => x.name).join(', ')})`);
    await page.evaluate(() => { window.rigsmithViewer.setPose(null); window.rigsmithViewer.view('front'); });
    const at = await page.evaluate((b) => window.rigsmithViewer.project(window.rigsmithViewer.boneHead(b)), c.focus);
    const last = c.values[c.values.length - 1];
    await page.evaluate((x) => window.rigsmithViewer.setControl(x[0], x[1]), [c.name, c.values[0]]);
    await grab('c0');
    // Through the slider itself, as a user moves it.
    await page.locator(`input[data-control="${c.name}"]`).fill(String(last));
    await grab('c1');
    const positions = [];
    for (const v of c.values) {
      positions.push(await page.evaluate((x) => { window.rigsmithViewer.setControl(x[0], x[1]); return window.rigsmithViewer.positions(0); }, [c.name, v]));
    }
    out.control = {
      name: c.name, focus: c.focus, at, values: c.values,
      state: await page.evaluate(() => window.rigsmithViewer.state.control),
      changed_near: await share('changed', 'c0', 'c1', at, 40),
      positions,
    };
    await page.evaluate(() => window.rigsmithViewer.setPose(null));
  }

  // 4. What three.js poses, per pose, for the comparison with the review.
  if (flag('--positions')) {
    out.positions = {};
    out.compare_by_pose = {};
    for (const p of out.poses) {
      out.positions[p] = await page.evaluate((p) => { window.rigsmithViewer.setPose(p); return window.rigsmithViewer.positions(0); }, p);
      out.compare_by_pose[p] = await page.evaluate(() => window.rigsmithViewer.compare || null);
    }
    out.rest_positions = await page.evaluate(() => { window.rigsmithViewer.setPose(null); return window.rigsmithViewer.positions(0); });
    out.compare = await page.evaluate(() => window.rigsmithViewer.compare || null);
  }

  // 5. A picture of the viewer: the pose, the skeleton in x-ray.
  const shot = opt('--screenshot');
  if (shot) {
    await page.evaluate((p) => { window.rigsmithViewer.setPose(p); window.rigsmithViewer.view('front'); }, pose || null);
    await page.click('#rs-viewer-xray');
    await page.locator('#viewer').screenshot({ path: shot });
    await page.click('#rs-viewer-xray');
  }
  writeFileSync(outPath, JSON.stringify(out));
} catch (e) {
  out.script_error = String(e && e.stack || e);
  writeFileSync(outPath, JSON.stringify(out));
  console.error(out.script_error);
  process.exitCode = 1;
} finally {
  await browser.close();
}
