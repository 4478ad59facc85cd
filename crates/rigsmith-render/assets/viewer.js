// rigsmith report viewer: poses the rig the review measured, in the browser.
// Reads the page's JSON (#rs-viewer-data), each model's rigged GLB (#rs-viewer-glb-K,
// base64: the geometry, read from its accessors) and the binary buffer (#rs-viewer-bin,
// base64: motion frames), builds three.js skinned meshes and poses them with the
// review's forward kinematics:
//   W[i] = W[parent] * (R[parent]^-1 * R[i]) * T(t[i]) * rot(q[i]),  root: R[i] * T * rot
// (R = rest matrices), skinning matrices W[i] * R[i]^-1, linear blend on the GPU.
// Test hook: window.rigsmithViewer (ready, off, poses(), setPose(), positions(), ...).
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var hook = (window.rigsmithViewer = { ready: false, off: null });
  function viewerOff(why) {
    var p = $('rs-viewer-off');
    p.hidden = false;
    p.textContent = 'The 3D viewer is off: ' + why + '. The tables and the sheets are complete without it.';
    $('rs-viewer-canvas').style.display = 'none';
    $('rs-viewer-side').style.display = 'none';
    hook.off = why;
    hook.ready = true;
  }
  var data;
  try {
    data = JSON.parse($('rs-viewer-data').textContent);
  } catch (e) {
    viewerOff('its data could not be read (' + e.message + ')');
    return;
  }
  if (typeof THREE === 'undefined') {
    viewerOff('three.js did not load');
    return;
  }
  function noWebGL() {
    if (!window.WebGL2RenderingContext) return 'this browser has no WebGL 2 (three.js needs it)';
    try {
      var c = document.createElement('canvas');
      if (!c.getContext('webgl2')) return 'no WebGL 2 context could be created (WebGL is disabled, or there is no GPU and no software fallback)';
    } catch (e) {
      return 'WebGL failed: ' + e.message;
    }
    return null;
  }
  var why = noWebGL();
  if (why) {
    viewerOff(why);
    return;
  }

  // ---- the binary buffer and the GLBs
  function bytesOf(id) {
    var el = $(id);
    var s = atob(el ? el.textContent.replace(/\s+/g, '') : '');
    var u = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
    return u.buffer;
  }
  var bin = bytesOf('rs-viewer-bin');
  // A GLB: its JSON chunk and its BIN chunk (an ArrayBuffer); throws naming the fault.
  function readGlb(buf) {
    var dv = new DataView(buf);
    if (buf.byteLength < 20 || dv.getUint32(0, true) !== 0x46546c67) throw new Error('not a GLB');
    var at = 12, doc = null, body = null;
    while (at + 8 <= buf.byteLength) {
      var len = dv.getUint32(at, true), type = dv.getUint32(at + 4, true);
      if (type === 0x4e4f534a) doc = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, at + 8, len)));
      else if (type === 0x004e4942) body = buf.slice(at + 8, at + 8 + len);
      at += 8 + len;
    }
    if (!doc || !body) throw new Error('the GLB has no JSON or no BIN chunk');
    return { doc: doc, bin: body };
  }
  var COMPS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
  var TYPES = { 5121: Uint8Array, 5123: Uint16Array, 5125: Uint32Array, 5126: Float32Array };
  // Accessor k of a GLB as a typed array (count x components), tightly packed.
  function accessor(glb, k, what) {
    var a = glb.doc.accessors[k];
    if (!a || a.bufferView === undefined || a.sparse) throw new Error(what + ': accessor ' + k + ' is missing or sparse');
    var T = TYPES[a.componentType], c = COMPS[a.type];
    var bv = glb.doc.bufferViews[a.bufferView];
    var size = T.BYTES_PER_ELEMENT, start = (bv.byteOffset || 0) + (a.byteOffset || 0);
    var stride = bv.byteStride || c * size;
    var out = new T(a.count * c);
    var src = new DataView(glb.bin);
    var get = { 1: 'getUint8', 2: 'getUint16', 4: a.componentType === 5126 ? 'getFloat32' : 'getUint32' }[size];
    for (var i = 0; i < a.count; i++) for (var j = 0; j < c; j++) out[i * c + j] = src[get](start + i * stride + j * size, true);
    return out;
  }
  var H = data.height > 0 ? data.height : 1;
  var BASE = [0.78, 0.74, 0.70];
  var OTHER = [[0.55, 0.62, 0.75], [0.62, 0.72, 0.55], [0.75, 0.6, 0.5], [0.65, 0.55, 0.72]];

  function heat(w, out, k) {
    // 0 -> dark blue, 0.25 -> cyan, 0.5 -> green, 0.75 -> yellow, 1 -> red.
    w = Math.max(0, Math.min(1, w));
    var r = Math.max(0, Math.min(1, 4 * w - 2));
    var g = w < 0.75 ? Math.min(1, 4 * w) : Math.max(0, 4 - 4 * w);
    var b = Math.max(0, Math.min(1, 2 - 4 * w));
    if (w === 0) { r = 0.16; g = 0.18; b = 0.32; }
    out[k] = r; out[k + 1] = g; out[k + 2] = b;
  }

  // ---- a model: bones, meshes, poses
  function buildModel(md, slot) {
    if (md.glb_error) throw new Error(md.label + ': its GLB could not be written (' + md.glb_error + ')');
    var glb = readGlb(bytesOf('rs-viewer-glb-' + slot));
    var nb = md.bones.length;
    var rest = md.bones.map(function (b) { return new THREE.Matrix4().fromArray(b.rest); });
    var restInv = rest.map(function (m) { return m.clone().invert(); });
    var restLocal = md.bones.map(function (b, i) {
      return b.parent === null ? rest[i].clone() : restInv[b.parent].clone().multiply(rest[i]);
    });
    var scene = new THREE.Scene();
    scene.background = new THREE.Color(0x30343a);
    scene.add(new THREE.AmbientLight(0xffffff, 1.1));
    var key = new THREE.DirectionalLight(0xffffff, 1.9);
    key.position.set(0.6, 1.0, 1.4);
    scene.add(key);
    var fill = new THREE.DirectionalLight(0xffffff, 0.7);
    fill.position.set(-1, 0.3, -1);
    scene.add(fill);
    var group = new THREE.Group();
    scene.add(group);
    var bones = md.bones.map(function (b) {
      var o = new THREE.Bone();
      o.name = b.name;
      o.matrixAutoUpdate = false;
      group.add(o);
      return o;
    });
    var skeleton = nb ? new THREE.Skeleton(bones, restInv.map(function (m) { return m.clone(); })) : null;
    var meshes = md.parts.map(function (p, pi) {
      var n = p.vertices;
      var gm = glb.doc.meshes[pi], prim = gm && gm.primitives[0];
      if (!prim) throw new Error(md.label + ': the GLB has no mesh for part ' + p.name);
      var what = md.label + ' ' + p.name;
      var pos = accessor(glb, prim.attributes.POSITION, what + ' POSITION');
      if (pos.length !== 3 * n) throw new Error(what + ': the GLB has ' + pos.length / 3 + ' vertices, the rig ' + n);
      var geo = new THREE.BufferGeometry();
      geo.setAttribute('position', new THREE.BufferAttribute(pos, 3));
      geo.setIndex(new THREE.BufferAttribute(accessor(glb, prim.indices, what + ' indices'), 1));
      if (prim.attributes.NORMAL !== undefined) geo.setAttribute('normal', new THREE.BufferAttribute(accessor(glb, prim.attributes.NORMAL, what + ' NORMAL'), 3));
      else geo.computeVertexNormals();
      var base = pi === 0 ? BASE : OTHER[(pi - 1) % OTHER.length];
      var col = new Float32Array(n * 3);
      geo.setAttribute('color', new THREE.BufferAttribute(col, 3));
      var mat = new THREE.MeshLambertMaterial({ vertexColors: true, side: THREE.DoubleSide, transparent: true, opacity: 1 });
      var mesh;
      var joints = null, weights = null;
      // JOINTS_0 / WEIGHTS_0 hold each vertex's 4 strongest influences (the writer sorts
      // them strongest first), as the file gives them.
      if (p.skinned && skeleton && prim.attributes.JOINTS_0 !== undefined && prim.attributes.WEIGHTS_0 !== undefined) {
        joints = accessor(glb, prim.attributes.JOINTS_0, what + ' JOINTS_0');
        weights = accessor(glb, prim.attributes.WEIGHTS_0, what + ' WEIGHTS_0');
        geo.setAttribute('skinIndex', new THREE.BufferAttribute(new Uint16Array(joints), 4));
        geo.setAttribute('skinWeight', new THREE.BufferAttribute(new Float32Array(weights), 4));
        mesh = new THREE.SkinnedMesh(geo, mat);
        mesh.bind(skeleton, new THREE.Matrix4());
      } else {
        mesh = new THREE.Mesh(geo, mat);
      }
      mesh.frustumCulled = false;
      mesh.userData = { part: pi, base: base, n: n, joints: joints, weights: weights };
      group.add(mesh);
      return mesh;
    });
    // Skeleton overlay (x-ray): deform bones strong colours, others pale; left blue,
    // right red, centre yellow.
    var lineGeo = new THREE.BufferGeometry();
    var linePos = new Float32Array(nb * 6), lineCol = new Float32Array(nb * 6);
    md.bones.forEach(function (b, i) {
      var c = b.side === 'L' ? [0.2, 0.55, 1.0] : b.side === 'R' ? [1.0, 0.3, 0.3] : [1.0, 0.85, 0.1];
      if (!b.deform) c = c.map(function (x) { return 0.55 + 0.45 * x; });
      for (var e = 0; e < 2; e++) for (var a = 0; a < 3; a++) lineCol[6 * i + 3 * e + a] = c[a] * (e ? 0.6 : 1);
    });
    lineGeo.setAttribute('position', new THREE.BufferAttribute(linePos, 3));
    lineGeo.setAttribute('color', new THREE.BufferAttribute(lineCol, 3));
    var lines = new THREE.LineSegments(lineGeo, new THREE.LineBasicMaterial({ vertexColors: true, depthTest: false, transparent: true }));
    lines.renderOrder = 10;
    lines.frustumCulled = false;
    lines.visible = false;
    scene.add(lines);
    var marker = new THREE.Points(new THREE.BufferGeometry(), new THREE.PointsMaterial({ color: 0xff2020, size: 6, sizeAttenuation: false, depthTest: false }));
    marker.renderOrder = 11;
    marker.frustumCulled = false;
    scene.add(marker);
    return {
      md: md, slot: slot, rest: rest, restInv: restInv, restLocal: restLocal, scene: scene, group: group,
      bones: bones, skeleton: skeleton, meshes: meshes, lines: lines, marker: marker, world: rest.map(function (m) { return m.clone(); })
    };
  }

  var ONE = new THREE.Vector3(1, 1, 1);
  // World matrices of `pose` at fraction t (0 rest .. 1 full): rotations slerped from
  // the identity, translations scaled.
  function poseWorld(model, pose, t) {
    var md = model.md, n = md.bones.length;
    var q = new Array(n), tr = new Array(n);
    if (pose) pose.bones.forEach(function (e) {
      q[e[0]] = new THREE.Quaternion(e[1], e[2], e[3], e[4]);
      tr[e[0]] = new THREE.Vector3(e[5], e[6], e[7]);
    });
    var W = [];
    var local = new THREE.Matrix4();
    for (var i = 0; i < n; i++) {
      var qq = new THREE.Quaternion();
      if (q[i]) qq.slerp(q[i], t);
      var tt = tr[i] ? tr[i].clone().multiplyScalar(t) : new THREE.Vector3();
      local.compose(tt, qq, ONE);
      var p = md.bones[i].parent;
      var m = p === null ? model.rest[i].clone() : W[p].clone().multiply(model.restLocal[i]);
      W.push(m.multiply(local));
    }
    return W;
  }
  function applyWorld(model, W) {
    model.world = W;
    var lp = model.lines.geometry.attributes.position;
    var h = new THREE.Vector3(), tl = new THREE.Vector3(), S = new THREE.Matrix4();
    model.bones.forEach(function (b, i) {
      b.matrix.copy(W[i]);
      b.matrixWorldNeedsUpdate = true;
      S.multiplyMatrices(W[i], model.restInv[i]);
      var bd = model.md.bones[i];
      h.fromArray(bd.head).applyMatrix4(S);
      tl.fromArray(bd.tail).applyMatrix4(S);
      lp.setXYZ(2 * i, h.x, h.y, h.z);
      lp.setXYZ(2 * i + 1, tl.x, tl.y, tl.z);
    });
    lp.needsUpdate = true;
    model.scene.updateMatrixWorld(true);
  }
  // Posed position of vertex v of part pi, as three.js skins it (CPU path of the shader).
  function posed(model, pi, v, out) {
    return model.meshes[pi].getVertexPosition(v, out);
  }

  var models;
  try {
    models = data.models.map(buildModel);
  } catch (e) {
    viewerOff('the rig could not be read (' + e.message + ')');
    return;
  }
  var A = models[0], B = models[1] || null;

  // ---- renderer, camera, controls
  var host = $('rs-viewer-canvas');
  var renderer;
  try {
    renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  } catch (e) {
    viewerOff('WebGL failed to start (' + e.message + ')');
    return;
  }
  renderer.setPixelRatio(1);
  renderer.setSize(host.clientWidth, host.clientHeight);
  host.appendChild(renderer.domElement);
  var camera = new THREE.PerspectiveCamera(30, 1, 0.01 * H, 100 * H);
  var controls = new THREE.OrbitControls(camera, renderer.domElement);
  controls.enableDamping = false;
  var dirty = true;
  controls.addEventListener('change', function () { dirty = true; });
  function aspect() { return (B ? host.clientWidth / 2 : host.clientWidth) / host.clientHeight; }
  camera.aspect = aspect();
  camera.updateProjectionMatrix();
  function labels() {
    models.forEach(function (m, k) {
      var d = document.createElement('div');
      d.className = 'vlabel';
      d.style.left = (k * (B ? host.clientWidth / 2 : 0) + 6) + 'px';
      d.textContent = m.md.label + (m.md.skinned ? '' : ' (static: no skin)');
      host.appendChild(d);
    });
  }
  labels();
  function render() {
    var w = host.clientWidth, h = host.clientHeight;
    if (!B) {
      renderer.setScissorTest(false);
      renderer.setViewport(0, 0, w, h);
      renderer.render(A.scene, camera);
    } else {
      renderer.setScissorTest(true);
      models.forEach(function (m, k) {
        renderer.setViewport(k * w / 2, 0, w / 2, h);
        renderer.setScissor(k * w / 2, 0, w / 2, h);
        renderer.render(m.scene, camera);
      });
    }
    dirty = false;
  }
  function loop() {
    if (playing) stepMotion();
    if (dirty) render();
    requestAnimationFrame(loop);
  }

  // Frame a sphere (centre, radius) from the direction `dir` (or the current one).
  function frame(centre, radius, dir) {
    var c = new THREE.Vector3().fromArray(centre);
    var d = dir ? new THREE.Vector3().fromArray(dir).normalize() : camera.position.clone().sub(controls.target).normalize();
    var dist = radius / Math.sin((camera.fov * Math.PI) / 360) * 1.1;
    controls.target.copy(c);
    camera.position.copy(c).addScaledVector(d, dist);
    camera.near = dist / 100;
    camera.far = dist * 100;
    camera.updateProjectionMatrix();
    controls.update();
    dirty = true;
  }
  // The rest box of every part (the geometry's own positions: a skinned mesh's bounds
  // would follow its bones).
  var box = new THREE.Box3();
  models.forEach(function (m) { m.meshes.forEach(function (mesh) { mesh.geometry.computeBoundingBox(); box.union(mesh.geometry.boundingBox); }); });
  var sphere = box.getBoundingSphere(new THREE.Sphere());
  var VIEWS = { front: [0, 0, 1], side: [-1, 0, 0], top: [0, 1, 0.001] };
  function view(name) { frame(sphere.center.toArray(), sphere.radius, VIEWS[name]); }

  // ---- state and colours
  var state = { pose: null, t: 1, weightBone: -1, check: null, xray: false, picked: null, control: null };
  function findPose(model, name) {
    return name === null ? null : model.md.poses.filter(function (p) { return p.name === name; })[0] || null;
  }
  function recolour() {
    var marked = {};
    if (state.check && state.check.marked) state.check.marked.forEach(function (m) { (marked[m[0]] = marked[m[0]] || {})[m[1]] = true; });
    var dist = compareDistances();
    models.forEach(function (model, mi) {
      model.meshes.forEach(function (mesh) {
        var u = mesh.userData, col = mesh.geometry.attributes.color.array;
        for (var v = 0; v < u.n; v++) {
          if (dist && dist[u.part]) heat(dist[u.part][v] / (0.02 * H), col, 3 * v);
          else if (state.weightBone >= 0 && mi === 0) {
            var w = 0;
            if (u.joints) for (var k = 0; k < 4; k++) if (u.joints[4 * v + k] === state.weightBone) w += u.weights[4 * v + k];
            heat(w, col, 3 * v);
          } else if (mi === 0 && marked[u.part] && marked[u.part][v]) {
            col[3 * v] = 1; col[3 * v + 1] = 0.1; col[3 * v + 2] = 0.1;
          } else {
            col[3 * v] = u.base[0]; col[3 * v + 1] = u.base[1]; col[3 * v + 2] = u.base[2];
          }
        }
        mesh.geometry.attributes.color.needsUpdate = true;
        mesh.material.opacity = state.xray ? 0.35 : 1;
        mesh.material.depthWrite = !state.xray;
      });
      model.lines.visible = state.xray;
    });
    dirty = true;
  }
  // Per part of A, the distance of every vertex to B's (same part index and count),
  // in the current pose; null when there is no comparison.
  var compareNote = '';
  function compareDistances() {
    if (!B) return null;
    var out = [], worst = 0, sum = 0, cnt = 0, a = new THREE.Vector3(), b = new THREE.Vector3();
    var mismatch = [];
    A.meshes.forEach(function (ma, pi) {
      var mb = B.meshes[pi];
      if (!mb || mb.userData.n !== ma.userData.n) { mismatch.push(A.md.parts[pi].name); return; }
      var d = new Float32Array(ma.userData.n);
      for (var v = 0; v < d.length; v++) {
        d[v] = posed(A, pi, v, a).distanceTo(posed(B, pi, v, b));
        worst = Math.max(worst, d[v]); sum += d[v]; cnt++;
      }
      out[pi] = d;
    });
    if (B.meshes.length > A.meshes.length) mismatch.push((B.meshes.length - A.meshes.length) + ' more parts in ' + B.md.label);
    compareNote = 'distance ' + A.md.label + ' to ' + B.md.label + ': mean ' + (cnt ? (sum / cnt / H).toFixed(4) : '-') + ' H, max ' + (worst / H).toFixed(4) + ' H (colour: 0 blue .. 0.02 H red)' +
      (mismatch.length ? '; not compared (vertex counts differ): ' + mismatch.join(', ') : '') +
      (state.pose && B.md.skinned && !findPose(B, state.pose) ? '; ' + B.md.label + ' has no pose ' + state.pose + ' (its skeleton lacks the bones): shown at rest' : '');
    hook.compare = { mean_h: cnt ? sum / cnt / H : null, max_h: worst / H, compared: cnt, mismatch: mismatch };
    return out;
  }
  function setPose(name, t) {
    state.pose = name;
    state.t = t;
    state.control = null;
    stopMotion();
    models.forEach(function (m) {
      if (!m.md.skinned) return;
      applyWorld(m, poseWorld(m, findPose(m, name), t));
    });
    recolour();
    info();
    render();
  }

  // ---- the control rig's controls: poses at slider steps, interpolated between them
  var controlsList = A.md.skinned ? (data.controls || []) : [];
  var controlInputs = {};
  // The pose of control c at value v: each bone's rotation slerped and translation
  // lerped between the two steps around v (exactly the step's pose at a step).
  function controlPose(c, v) {
    var vals = c.values, k = 0;
    v = Math.max(vals[0], Math.min(vals[vals.length - 1], v));
    while (k + 2 < vals.length && vals[k + 1] <= v) k++;
    var span = vals[k + 1] - vals[k], f = span > 0 ? (v - vals[k]) / span : 0;
    if (f >= 1) { k++; f = 0; }
    var n = A.md.bones.length, qa = [], qb = [], ta = [], tb = [];
    function fill(list, q, t) {
      (list || []).forEach(function (e) {
        q[e[0]] = new THREE.Quaternion(e[1], e[2], e[3], e[4]);
        t[e[0]] = new THREE.Vector3(e[5], e[6], e[7]);
      });
    }
    fill(c.steps[k], qa, ta);
    fill(c.steps[Math.min(k + 1, c.steps.length - 1)], qb, tb);
    var bones = [];
    for (var i = 0; i < n; i++) {
      if (!qa[i] && !qb[i]) continue;
      var q = (qa[i] || new THREE.Quaternion()).clone();
      if (f > 0) q.slerp(qb[i] || new THREE.Quaternion(), f);
      var t = (ta[i] || new THREE.Vector3()).clone();
      if (f > 0) t.lerp(tb[i] || new THREE.Vector3(), f);
      bones.push([i, q.x, q.y, q.z, q.w, t.x, t.y, t.z]);
    }
    return { name: c.name, bones: bones };
  }
  function setControl(name, v) {
    var c = controlsList.filter(function (x) { return x.name === name; })[0];
    if (!c) return null;
    stopMotion();
    Object.keys(poseButtons).forEach(function (k) { poseButtons[k].classList.remove('on'); });
    state.pose = null;
    state.check = null;
    state.control = { name: name, value: v };
    Object.keys(controlInputs).forEach(function (k) {
      var ci = controlInputs[k], c2 = controlsList.filter(function (x) { return x.name === k; })[0];
      var val = k === name ? v : c2.default;
      ci.input.value = String(val);
      ci.out.textContent = (Math.round(val * 100) / 100).toString();
    });
    applyWorld(A, poseWorld(A, controlPose(c, v), 1));
    recolour();
    info();
    render();
    return v;
  }

  // ---- side panel
  var side = $('rs-viewer-side'), bar = $('rs-viewer-bar');
  function button(parent, text, fn, title) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    if (title) b.title = title;
    b.addEventListener('click', fn);
    parent.appendChild(b);
    return b;
  }
  function heading(text) {
    var h = document.createElement('h3');
    h.textContent = text;
    side.appendChild(h);
  }
  ['front', 'side', 'top'].forEach(function (v) { button(bar, v, function () { view(v); }, 'camera: ' + v + ' view'); });
  var xr = document.createElement('label');
  xr.innerHTML = ' <input type="checkbox" id="rs-viewer-xray"> skeleton (x-ray)';
  bar.appendChild(xr);
  $('rs-viewer-xray').addEventListener('change', function (e) { state.xray = e.target.checked; recolour(); render(); });
  var slider = document.createElement('span');
  slider.innerHTML = ' &nbsp;rest <input type="range" id="rs-viewer-t" min="0" max="1" step="0.01" value="1" style="vertical-align:middle"> full';
  bar.appendChild(slider);
  $('rs-viewer-t').addEventListener('input', function (e) { setPose(state.pose, parseFloat(e.target.value)); });
  var notes = [];
  if (!A.md.skinned) notes.push('This file has no skin (no skeleton or no weights): the viewer shows it static; poses, weights and the skeleton need a skinned rig.');
  if (B && !B.md.skinned) notes.push(B.md.label + ' has no skin: it is shown static, at rest, beside the posed ' + A.md.label + '.');
  if (data.skinning === 'dqs') notes.push('The review measured with dual-quaternion skinning; the viewer skins with linear blend (as game engines do), so bent joints look slightly thinner here than in the measures.');
  models.forEach(function (m) { if (m.md.over4 > 0) notes.push(m.md.label + ': ' + m.md.over4 + ' vertices carry more than 4 influences; the viewer skins with the 4 strongest, as the GLB it carries holds them.'); });

  var poseButtons = {};
  if (A.md.skinned) {
    if (A.md.poses.length) heading('Poses (the review measured these)');
    var ul = document.createElement('ul');
    ul.className = 'vposes';
    side.appendChild(ul);
    var li0 = document.createElement('li');
    ul.appendChild(li0);
    if (A.md.poses.length) poseButtons[''] = button(li0, 'rest', function () { choosePose(null); });
    A.md.poses.forEach(function (p) {
      var li = document.createElement('li');
      ul.appendChild(li);
      poseButtons[p.name] = button(li, p.name, function () { choosePose(p.name); }, p.joints.length ? 'measures ' + p.joints.join(', ') : '');
      poseButtons[p.name].dataset.pose = p.name;
    });
    heading('Weights');
    var sel = document.createElement('select');
    sel.id = 'rs-viewer-weights';
    var o0 = document.createElement('option');
    o0.value = '-1';
    o0.textContent = '(none: part colours)';
    sel.appendChild(o0);
    var used = {};
    A.meshes.forEach(function (m) {
      var u = m.userData;
      if (u.joints) for (var k = 0; k < u.n * 4; k++) if (u.weights[k] > 0) used[u.joints[k]] = true;
    });
    A.md.bones.forEach(function (b, i) {
      if (!used[i]) return;
      var o = document.createElement('option');
      o.value = String(i);
      o.textContent = b.name + (b.deform ? '' : ' (not deform)');
      sel.appendChild(o);
    });
    sel.addEventListener('change', function () { state.weightBone = parseInt(sel.value, 10); recolour(); info(); render(); });
    side.appendChild(sel);
    var hint = document.createElement('div');
    hint.className = 'vlegend';
    hint.textContent = 'heat: 0 dark blue, then blue, green, yellow, 1 red. Click the body: that vertex\u2019s influences.';
    side.appendChild(hint);
    heading('Skeleton colours');
    var lg = document.createElement('div');
    lg.className = 'vlegend';
    lg.innerHTML = 'deform bones: <b style="color:#3388ff">left</b>, <b style="color:#ff4d4d">right</b>, <b style="color:#d9b400">centre</b>; bones that do not deform (control, helper): the same, pale.';
    side.appendChild(lg);
    if (data.motion) {
      heading('Springs');
      button(side, 'play ' + data.motion.label, function () { playing ? stopMotion() : startMotion(); }, 'the frames simulate computed, chains swinging').id = 'rs-viewer-play';
    }
    heading('Controls');
    var ctl = document.createElement('div');
    ctl.className = 'vlegend';
    ctl.textContent = controlsList.length ? 'The control rig, evaluated by rigsmith at the slider steps (the viewer interpolates between them):' : 'No control rig in this file: FK/IK switches and foot roll appear here when the rig carries controls.';
    side.appendChild(ctl);
    controlsList.forEach(function (c) {
      var row = document.createElement('div');
      row.className = 'vlegend';
      var lo = c.values[0], hi = c.values[c.values.length - 1];
      row.innerHTML = '<b></b> <input type="range" style="vertical-align:middle;width:120px"> <span></span>';
      row.firstChild.textContent = c.name;
      row.title = c.what;
      var input = row.querySelector('input'), out = row.querySelector('span');
      input.min = String(lo); input.max = String(hi); input.step = String((hi - lo) / 100); input.value = String(c.default);
      input.dataset.control = c.name;
      out.textContent = String(c.default);
      input.addEventListener('input', function () { setControl(c.name, parseFloat(input.value)); });
      side.appendChild(row);
      controlInputs[c.name] = { input: input, out: out };
    });
  }
  function choosePose(name) {
    Object.keys(poseButtons).forEach(function (k) { poseButtons[k].classList.toggle('on', k === (name || '')); });
    state.check = null;
    $('rs-viewer-t').value = '1';
    setPose(name, 1);
  }

  // ---- vertex click: influences
  var ray = new THREE.Raycaster(), ndc = new THREE.Vector2(), down = null;
  renderer.domElement.addEventListener('pointerdown', function (e) { down = [e.clientX, e.clientY]; });
  renderer.domElement.addEventListener('pointerup', function (e) {
    if (!down || Math.abs(e.clientX - down[0]) + Math.abs(e.clientY - down[1]) > 4) return;
    var r = renderer.domElement.getBoundingClientRect();
    var w = B ? r.width / 2 : r.width;
    var x = e.clientX - r.left, k = B && x > w ? 1 : 0;
    ndc.set(((x - k * w) / w) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
    ray.setFromCamera(ndc, camera);
    var model = models[k];
    // A skinned mesh caches its bounds on the first ray: posed since, so drop them.
    model.meshes.forEach(function (m) { m.boundingSphere = null; m.boundingBox = null; });
    var hit = ray.intersectObjects(model.meshes, false)[0];
    if (!hit || !hit.face) { state.picked = null; info(); return; }
    var mesh = hit.object, best = -1, bd = Infinity, p = new THREE.Vector3();
    [hit.face.a, hit.face.b, hit.face.c].forEach(function (v) {
      var d = mesh.getVertexPosition(v, p).distanceTo(hit.point);
      if (d < bd) { bd = d; best = v; }
    });
    state.picked = { model: k, part: mesh.userData.part, vertex: best };
    var g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(mesh.getVertexPosition(best, p).toArray(), 3));
    model.marker.geometry.dispose();
    model.marker.geometry = g;
    info();
    dirty = true;
  });

  function info() {
    var lines = notes.slice();
    if (state.pose) lines.push('pose ' + state.pose + ' at ' + Math.round(state.t * 100) + ' %');
    if (state.control) lines.push('control ' + state.control.name + ' at ' + (Math.round(state.control.value * 100) / 100));
    if (state.check) lines.push('check ' + state.check.id + (state.check.joint ? ' at ' + state.check.joint : '') +
      (state.check.marked ? ': ' + state.check.marked_total + ' offending vertices in red' + (state.check.marked_total > state.check.marked.length ? ' (first ' + state.check.marked.length + ')' : '') : ''));
    if (state.weightBone >= 0) lines.push('weights of ' + A.md.bones[state.weightBone].name);
    if (B) lines.push(compareNote);
    var pk = state.picked;
    if (pk) {
      var m = models[pk.model], u = m.meshes[pk.part].userData;
      var s = m.md.label + ' ' + m.md.parts[pk.part].name + ' vertex ' + pk.vertex + ':';
      var any = false;
      if (u.joints) for (var k = 0; k < 4; k++) {
        var w = u.weights[4 * pk.vertex + k];
        if (w > 0) { any = true; s += ' ' + m.md.bones[u.joints[4 * pk.vertex + k]].name + ' ' + w.toFixed(3); }
      }
      lines.push(s + (any ? '' : ' no influence (static)'));
    }
    $('rs-viewer-info').textContent = lines.join('\n');
  }

  // ---- failed checks in the tables: click -> pose, joint framed, vertices in red
  var checks = {};
  (data.checks || []).forEach(function (c) { checks[c.id] = c; });
  function selectCheck(id) {
    var c = checks[id];
    if (!c) return false;
    if (c.pose) { choosePose(c.pose); }
    state.check = c;
    recolour();
    info();
    if (c.centre) frame(c.centre, 2.2 * c.radius);
    render();
    return true;
  }
  document.addEventListener('click', function (e) {
    var a = e.target.closest && e.target.closest('a.rs-view');
    if (!a) return;
    e.preventDefault();
    if (selectCheck(a.dataset.check)) $('viewer').scrollIntoView({ behavior: 'auto', block: 'start' });
  });

  // ---- motion frames (simulate)
  var playing = false, t0 = 0;
  function motionWorld(k) {
    var m = data.motion, nb = A.md.bones.length;
    var skin = new Float32Array(bin, m.skin + k * nb * 64, nb * 16);
    return A.rest.map(function (r, i) {
      return new THREE.Matrix4().fromArray(skin, 16 * i).multiply(r);
    });
  }
  function stepMotion() {
    var m = data.motion, times = m.times, span = times[times.length - 1] - times[0];
    var t = ((performance.now() - t0) / 1000) % Math.max(span, 1e-3) + times[0];
    var k = 0;
    while (k + 1 < times.length && times[k + 1] <= t) k++;
    applyWorld(A, motionWorld(k));
    dirty = true;
  }
  function startMotion() { playing = true; t0 = performance.now(); var b = $('rs-viewer-play'); if (b) b.classList.add('on'); }
  function stopMotion() { if (!playing) return; playing = false; var b = $('rs-viewer-play'); if (b) b.classList.remove('on'); }

  // ---- test hook
  hook.poses = function () { return A.md.poses.map(function (p) { return p.name; }); };
  hook.setPose = function (name, t) { choosePose(name); if (t !== undefined && t !== 1) { $('rs-viewer-t').value = String(t); setPose(name, t); } return state.pose; };
  hook.view = function (name) { view(name); render(); };
  hook.selectCheck = selectCheck;
  hook.checks = function () { return Object.keys(checks); };
  hook.weightView = function (boneName) {
    var i = A.md.bones.map(function (b) { return b.name; }).indexOf(boneName);
    state.weightBone = i;
    if ($('rs-viewer-weights')) $('rs-viewer-weights').value = String(i);
    recolour();
    render();
    return i;
  };
  // Posed positions of every part of model k (default 0), as three.js skins them.
  hook.positions = function (k) {
    var m = models[k || 0], p = new THREE.Vector3();
    return m.meshes.map(function (mesh, pi) {
      var out = new Array(3 * mesh.userData.n);
      for (var v = 0; v < mesh.userData.n; v++) {
        posed(m, pi, v, p);
        out[3 * v] = p.x; out[3 * v + 1] = p.y; out[3 * v + 2] = p.z;
      }
      return out;
    });
  };
  // Screen position (CSS pixels in the canvas) of a world point, in viewport k.
  hook.project = function (xyz, k) {
    var w = B ? host.clientWidth / 2 : host.clientWidth;
    var v = new THREE.Vector3().fromArray(xyz).project(camera);
    return [(k || 0) * w + (v.x + 1) / 2 * w, (1 - v.y) / 2 * host.clientHeight];
  };
  // World position of a bone's head in the current pose (model 0).
  function boneEnd(name, end) {
    var i = A.md.bones.map(function (b) { return b.name; }).indexOf(name);
    if (i < 0) return null;
    var S = new THREE.Matrix4().multiplyMatrices(A.world[i], A.restInv[i]);
    return new THREE.Vector3().fromArray(A.md.bones[i][end]).applyMatrix4(S).toArray();
  }
  hook.boneHead = function (name) { return boneEnd(name, 'head'); };
  hook.boneTail = function (name) { return boneEnd(name, 'tail'); };
  hook.focusBone = function (pose) {
    var p = findPose(A, pose);
    return p && p.focus !== null ? A.md.bones[p.focus].name : null;
  };
  hook.motionFrame = function (k) { stopMotion(); applyWorld(A, motionWorld(k)); render(); };
  hook.motionFrames = function () { return data.motion ? data.motion.frames : 0; };
  hook.state = state;
  hook.controls = function () { return controlsList.map(function (c) { return { name: c.name, values: c.values, default: c.default, focus: c.focus === null ? null : A.md.bones[c.focus].name }; }); };
  hook.setControl = setControl;

  models.forEach(function (m) { if (m.md.skinned) applyWorld(m, poseWorld(m, null, 1)); });
  view('front');
  recolour();
  info();
  render();
  hook.ready = true;
  requestAnimationFrame(loop);
})();
