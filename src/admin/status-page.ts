/**
 * The live status page served at `/` of the admin endpoint. Self-contained (no file or script from
 * outside the process): the flow drawn as a graph (receivers -> links -> nodes -> persisters, pools with
 * their children), each link with a depth/capacity bar, each component coloured by state. Updated from
 * server-sent events (/events, every second), falling back to polling /status every 2 s.
 */
export const STATUS_PAGE_HTML = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>xroute status</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1d232b; }
  header { display: flex; gap: 24px; align-items: baseline; padding: 12px 20px; background: #1d232b; color: #fff; }
  header h1 { font-size: 18px; margin: 0; }
  #ready.yes { color: #6fdc8c; } #ready.no { color: #ff8389; }
  main { padding: 16px 20px; }
  svg text { font: 12px system-ui, sans-serif; }
  .legend span { display: inline-block; margin-right: 14px; }
  .legend i { display: inline-block; width: 12px; height: 12px; border-radius: 3px; margin-right: 4px; vertical-align: -1px; }
  table { border-collapse: collapse; margin-top: 16px; background: #fff; }
  th, td { border-bottom: 1px solid #e1e4e8; padding: 4px 10px; text-align: left; }
  td.num { text-align: right; font-variant-numeric: tabular-nums; }
  #conn { font-size: 12px; opacity: .8; }
</style>
</head>
<body>
<header><h1 id="flow">xroute</h1><span id="ready">…</span><span id="uptime"></span><span id="conn"></span></header>
<main>
  <div class="legend">
    <span><i style="background:#24a148"></i>RUNNING</span><span><i style="background:#f1c21b"></i>READY / PAUSE / STANDBY</span>
    <span><i style="background:#da1e28"></i>RETRYING / FAILED</span><span><i style="background:#8d8d8d"></i>STOPPED / other</span>
  </div>
  <svg id="graph" width="100%" height="200" role="img" aria-label="flow graph"></svg>
  <table id="components"><thead><tr><th>component</th><th>class</th><th>state</th><th>restarts</th><th>reconnects</th><th>in</th><th>done</th><th>failed</th><th>detail</th></tr></thead><tbody></tbody></table>
</main>
<script>
(function () {
  var SVG = 'http://www.w3.org/2000/svg';
  // green: working; amber: starting or paused on purpose; red: not working (broker unreachable, failed)
  var COLORS = { RUNNING: '#24a148', READY: '#f1c21b', PAUSE: '#f1c21b', STANDBY: '#f1c21b', RETRYING: '#da1e28', FAILED: '#da1e28' };
  function colour(state) { return COLORS[state] || '#8d8d8d'; }
  function el(name, attrs, text) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function levels(status) {
    // longest path from the receivers over producer -> link -> consumer edges
    var level = {};
    status.components.forEach(function (c) { level['c:' + c.name] = c.role === 'receiver' ? 0 : 1; });
    status.links.forEach(function (l) { level['l:' + l.name] = 1; });
    for (var round = 0; round < 20; round++) {
      var changed = false;
      status.links.forEach(function (l) {
        l.producers.forEach(function (p) {
          var v = (level['c:' + p] || 0) + 1;
          if (v > level['l:' + l.name]) { level['l:' + l.name] = v; changed = true; }
        });
        l.consumerNames.forEach(function (c) {
          var v = level['l:' + l.name] + 1;
          if (v > (level['c:' + c] || 0)) { level['c:' + c] = v; changed = true; }
        });
      });
      if (!changed) break;
    }
    return level;
  }
  function draw(status) {
    document.getElementById('flow').textContent = status.name;
    var ready = document.getElementById('ready');
    ready.textContent = status.ready ? 'ready' : 'not ready';
    ready.className = status.ready ? 'yes' : 'no';
    document.getElementById('uptime').textContent = 'up ' + Math.round(status.uptimeMs / 1000) + ' s';
    var level = levels(status);
    var columns = {};
    function place(key) { var lv = level[key] || 0; (columns[lv] = columns[lv] || []).push(key); }
    status.components.forEach(function (c) { place('c:' + c.name); });
    status.links.forEach(function (l) { place('l:' + l.name); });
    var W = 190, H = 64, GAPX = 60, GAPY = 22, pos = {}, maxRows = 0, maxLv = 0;
    var byName = {};
    status.components.forEach(function (c) { byName['c:' + c.name] = c; });
    status.links.forEach(function (l) { byName['l:' + l.name] = l; });
    Object.keys(columns).forEach(function (lv) {
      var y = 10;
      columns[lv].forEach(function (key) {
        var item = byName[key];
        var h = key[0] === 'c' && item.children ? H + 16 * Math.min(item.children.length, 8) : H;
        pos[key] = { x: 10 + lv * (W + GAPX), y: y, h: h };
        y += h + GAPY;
      });
      maxRows = Math.max(maxRows, y);
      maxLv = Math.max(maxLv, Number(lv));
    });
    var svg = document.getElementById('graph');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute('height', String(maxRows + 10));
    svg.setAttribute('viewBox', '0 0 ' + ((maxLv + 1) * (W + GAPX)) + ' ' + (maxRows + 10));
    function edge(a, b) {
      var p = pos[a], q = pos[b];
      if (!p || !q) return;
      svg.appendChild(el('line', { x1: p.x + W, y1: p.y + p.h / 2, x2: q.x, y2: q.y + q.h / 2, stroke: '#8b95a1', 'stroke-width': 1.5 }));
    }
    status.links.forEach(function (l) {
      l.producers.forEach(function (p) { edge('c:' + p, 'l:' + l.name); });
      l.consumerNames.forEach(function (c) { edge('l:' + l.name, 'c:' + c); });
    });
    status.links.forEach(function (l) {
      var p = pos['l:' + l.name];
      var g = el('g', { 'data-link': l.name, class: 'link' });
      g.appendChild(el('rect', { x: p.x, y: p.y, width: W, height: p.h, rx: 6, fill: '#fff', stroke: '#8b95a1' }));
      g.appendChild(el('text', { x: p.x + 8, y: p.y + 18 }, 'link ' + l.name));
      var frac = l.capacity > 0 ? Math.min(1, l.size / l.capacity) : 0;
      g.appendChild(el('rect', { x: p.x + 8, y: p.y + 28, width: W - 16, height: 10, fill: '#e1e4e8', rx: 3 }));
      g.appendChild(el('rect', { class: 'depth-bar', x: p.x + 8, y: p.y + 28, width: Math.max(0, (W - 16) * frac), height: 10, fill: frac > 0.9 ? '#da1e28' : '#0f62fe', rx: 3 }));
      g.appendChild(el('text', { class: 'depth', x: p.x + 8, y: p.y + 54 }, l.size + ' / ' + l.capacity + (l.state !== 'running' ? ' (' + l.state + ')' : '')));
      svg.appendChild(g);
    });
    status.components.forEach(function (c) {
      var p = pos['c:' + c.name];
      var g = el('g', { 'data-component': c.name, 'data-state': c.status, class: 'component' });
      var title = el('title', {}, c.detail || c.status);
      g.appendChild(title);
      g.appendChild(el('rect', { class: 'state', x: p.x, y: p.y, width: W, height: p.h, rx: 6, fill: colour(c.status), 'fill-opacity': 0.18, stroke: colour(c.status), 'stroke-width': 2 }));
      g.appendChild(el('text', { x: p.x + 8, y: p.y + 18, 'font-weight': 'bold' }, c.name));
      g.appendChild(el('text', { x: p.x + 8, y: p.y + 34 }, c.className));
      g.appendChild(el('text', { class: 'state-text', x: p.x + 8, y: p.y + 52 }, c.status + ' · restarts ' + c.restarts + ' · done ' + c.messages.done));
      (c.children || []).slice(0, 8).forEach(function (child, i) {
        g.appendChild(el('circle', { cx: p.x + 14, cy: p.y + 66 + 16 * i, r: 5, fill: colour(child.status) }));
        g.appendChild(el('text', { x: p.x + 24, y: p.y + 70 + 16 * i }, child.className + ' ' + child.name));
      });
      svg.appendChild(g);
    });
    var body = document.querySelector('#components tbody');
    while (body.firstChild) body.removeChild(body.firstChild);
    status.components.forEach(function (c) {
      var tr = document.createElement('tr');
      var held = c.unsettled && c.unsettled.deliveries > 0 ? c.unsettled.deliveries + ' unsettled, oldest ' + c.unsettled.oldestAgeSeconds.toFixed(1) + ' s' : '';
      [c.name, c.className, c.status, c.restarts, c.reconnects, c.messages.in, c.messages.done, c.messages.failed, [c.detail, held].filter(Boolean).join('; ')].forEach(function (v, i) {
        var td = document.createElement('td');
        td.textContent = String(v);
        if (i >= 3 && i <= 7) td.className = 'num';
        if (i === 2) td.style.color = colour(c.status);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }
  var conn = document.getElementById('conn');
  function poll() {
    fetch('status').then(function (r) { return r.json(); }).then(function (s) { conn.textContent = 'polling'; draw(s); }, function () { conn.textContent = 'disconnected'; });
  }
  if (window.EventSource) {
    var es = new EventSource('events');
    var lastReload = '';
    es.onmessage = function (e) { conn.textContent = 'live' + lastReload; draw(JSON.parse(e.data)); };
    es.addEventListener('reload', function (e) { var r = JSON.parse(e.data); lastReload = ' · last reload ' + r.outcome + (r.dryRun ? ' (dry run)' : '') + ' at ' + new Date(r.startedAt).toLocaleTimeString(); conn.textContent = 'live' + lastReload; });
    es.onerror = function () { conn.textContent = 'reconnecting'; };
  } else {
    poll();
    setInterval(poll, 2000);
  }
})();
</script>
</body>
</html>
`;
