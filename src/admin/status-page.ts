/**
 * The live status page served at `/` of the admin endpoint (docs/operations.md "Status page"). Self-contained: no
 * file, script or font from outside the process. The flow is drawn as a layered graph without crossing edges
 * (flow-layout.ts, whose function source the page embeds): receivers -> links -> nodes -> persisters, a
 * MessageEvaluator's bounce back to its node drawn as arrows both ways. Edges carry the links' rates; a stuck link
 * is red and everything upstream of it amber (the status's health fields); a component shows its in-flight
 * messages, its parked count and its next retry. A click on a component opens its details (GET
 * /components/NAME: masked configuration, last errors with their times, endpoint). A reload announced on /events
 * (event `reload`) shows as a banner. Updated from server-sent events (/events, every second), falling back to
 * polling /status every 2 s.
 */
import { layoutFlow } from './flow-layout';

/** Box sizes the page lays the graph out with (a pool's box grows by one row per child shown). */
const BOX = { width: 190, height: 78, childRow: 16, maxChildren: 8, gapX: 64 };

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
  #ready.yes { color: #6fdc8c; } #ready.no { color: #ff8389; } #ready.degraded { color: #f1c21b; }
  #banner { display: none; padding: 8px 20px; background: #e5f0ff; border-bottom: 1px solid #a6c8ff; }
  #banner.failed { background: #fff1f1; border-color: #ffb3b8; }
  main { padding: 16px 20px; }
  svg text { font: 12px system-ui, sans-serif; }
  svg .component { cursor: pointer; outline: none; }
  svg .edge-rate { font-size: 11px; fill: #525a63; }
  svg .link-state { font-size: 11px; }
  .legend span { display: inline-block; margin-right: 14px; }
  .legend i { display: inline-block; width: 12px; height: 12px; border-radius: 3px; margin-right: 4px; vertical-align: -1px; }
  .panes { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-start; }
  #graph { flex: none; }
  #details { display: none; flex: 1 1 320px; max-width: 460px; background: #fff; border: 1px solid #c1c7cd; border-radius: 6px; padding: 10px 14px; }
  #details h2 { font-size: 16px; margin: 0 0 6px; }
  #details dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0; }
  #details dt { color: #525a63; } #details dd { margin: 0; overflow-wrap: anywhere; }
  #details pre { max-height: 260px; overflow: auto; background: #f6f7f9; padding: 6px; font-size: 12px; }
  #details ol { margin: 0; padding-left: 18px; }
  table { border-collapse: collapse; margin-top: 16px; background: #fff; }
  th, td { border-bottom: 1px solid #e1e4e8; padding: 4px 10px; text-align: left; }
  td.num { text-align: right; font-variant-numeric: tabular-nums; }
  #conn { font-size: 12px; opacity: .8; }
  #slow { display: none; }
</style>
</head>
<body>
<header><h1 id="flow">xroute</h1><span id="ready">…</span><span id="uptime"></span><span id="conn"></span></header>
<div id="banner" role="status"></div>
<main>
  <div class="legend">
    <span><i style="background:#24a148"></i>RUNNING</span><span><i style="background:#f1c21b"></i>READY / PAUSE / STANDBY, or upstream of a stuck link</span>
    <span><i style="background:#da1e28"></i>RETRYING / FAILED, or a stuck link</span><span><i style="background:#8d8d8d"></i>STOPPED / other</span>
    <span>click a component for its details</span>
  </div>
  <div class="panes">
    <svg id="graph" width="600" height="200" role="img" aria-label="flow graph"></svg>
    <aside id="details" aria-live="polite"></aside>
  </div>
  <table id="components"><thead><tr><th>component</th><th>class</th><th>state</th><th>health</th><th>restarts</th><th>reconnects</th><th>in</th><th>done</th><th>failed</th><th>in flight</th><th>parked</th><th>msg/s</th><th>detail</th></tr></thead><tbody></tbody></table>
  <section id="slow"><h2>Slowest traced messages</h2><table><thead><tr><th>component</th><th>trace id</th><th>ms</th><th>at</th></tr></thead><tbody></tbody></table></section>
</main>
<script>
(function () {
  var SVG = 'http://www.w3.org/2000/svg';
  var BOX = ${JSON.stringify(BOX)};
  var layoutFlow = ${layoutFlow.toString()};
  var GREEN = '#24a148', AMBER = '#f1c21b', RED = '#da1e28', GREY = '#8d8d8d', EDGE = '#8b95a1';
  // green: working; amber: starting or paused on purpose; red: not working (broker unreachable, failed)
  var COLORS = { RUNNING: GREEN, READY: AMBER, PAUSE: AMBER, STANDBY: AMBER, RETRYING: RED, FAILED: RED };
  function stateColour(state) { return COLORS[state] || GREY; }
  // a stuck link is red, everything upstream of it amber; a component otherwise has its state's colour
  function colour(item) { return item.health === 'amber' ? AMBER : item.status !== undefined ? stateColour(item.status) : item.health === 'red' ? RED : EDGE; }
  function el(name, attrs, text) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function html(name, text, cls) {
    var e = document.createElement(name);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function rate(x) { return x >= 100 ? String(Math.round(x)) : String(Math.round(x * 10) / 10); }
  function ago(ms) { var s = Math.round(ms / 1000); return s < 120 ? s + ' s' : Math.round(s / 60) + ' min'; }
  function retryText(c) {
    if (c.nextRetryAt === undefined || c.nextRetryAt === null) return '';
    var d = c.nextRetryAt - Date.now();
    return d > 0 ? 'retry in ' + ago(d) : 'retrying';
  }
  function heightOf(c) { return BOX.height + (c.children ? BOX.childRow * Math.min(c.children.length, BOX.maxChildren) : 0); }

  var layout, layoutKey;
  function layoutFor(status) {
    var key = JSON.stringify([status.components.map(function (c) { return [c.name, c.className, c.role, heightOf(c)]; }), status.links.map(function (l) { return [l.name, l.producers, l.consumerNames]; })]);
    if (key !== layoutKey) {
      layoutKey = key;
      layout = layoutFlow({
        components: status.components.map(function (c) { return { name: c.name, className: c.className, role: c.role, height: heightOf(c) }; }),
        links: status.links,
      }, { boxWidth: BOX.width, boxHeight: BOX.height, gapX: BOX.gapX });
    }
    return layout;
  }

  function drawGraph(status) {
    var lay = layoutFor(status);
    var svg = document.getElementById('graph');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute('height', String(lay.height));
    svg.setAttribute('width', String(lay.width));
    svg.setAttribute('viewBox', '0 0 ' + lay.width + ' ' + lay.height);
    var defs = el('defs', {});
    [['arrow', EDGE], ['arrow-red', RED], ['arrow-amber', AMBER]].forEach(function (m) {
      var marker = el('marker', { id: m[0], viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
      marker.appendChild(el('path', { d: 'M0,0 L10,5 L0,10 z', fill: m[1] }));
      defs.appendChild(marker);
    });
    svg.appendChild(defs);
    var links = {}, components = {};
    status.links.forEach(function (l) { links[l.name] = l; });
    status.components.forEach(function (c) { components[c.name] = c; });
    var box = {};
    lay.boxes.forEach(function (b) { box[b.id] = b; });

    lay.edges.forEach(function (e) {
      var l = links[e.link];
      if (!l) return;
      var stroke = l.health === 'red' ? RED : l.health === 'amber' ? AMBER : EDGE;
      var marker = 'url(#' + (stroke === RED ? 'arrow-red' : stroke === AMBER ? 'arrow-amber' : 'arrow') + ')';
      var d = e.points.map(function (p, i) { return (i === 0 ? 'M' : 'L') + p.x + ',' + p.y; }).join(' ');
      var attrs = { d: d, fill: 'none', stroke: stroke, 'stroke-width': l.health === 'ok' ? 1.5 : 2.5, 'marker-end': marker, class: 'edge', 'data-link': e.link, 'data-direction': e.direction };
      if (e.bounce) { attrs['marker-start'] = marker; attrs['stroke-dasharray'] = '6 3'; attrs['data-bounce'] = 'true'; }
      svg.appendChild(el('path', attrs));
      var a = e.points[e.points.length - 2], b = e.points[e.points.length - 1];
      var label = (e.direction === 'in' ? rate(l.rate.in1s) : rate(l.rate.out1s)) + '/s';
      svg.appendChild(el('text', { class: 'edge-rate', 'data-link': e.link, 'data-direction': e.direction, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - 5, 'text-anchor': 'middle' }, label));
      if (e.bounce && e.direction === 'out') svg.appendChild(el('text', { class: 'edge-rate bounce', x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 + 14, 'text-anchor': 'middle' }, '⇄ bounce'));
    });

    status.links.forEach(function (l) {
      var p = box['l:' + l.name];
      if (!p) return;
      var c = colour(l);
      var g = el('g', { 'data-link': l.name, 'data-health': l.health, class: 'link' });
      g.appendChild(el('title', {}, l.stuck ? 'stuck: ' + l.stuck : l.blockedBy ? 'upstream of the stuck link ' + l.blockedBy : 'link ' + l.name));
      g.appendChild(el('rect', { class: 'frame', x: p.x, y: p.y, width: p.width, height: p.height, rx: 6, fill: l.health === 'ok' ? '#fff' : c, 'fill-opacity': l.health === 'ok' ? 1 : 0.12, stroke: l.health === 'ok' ? EDGE : c, 'stroke-width': l.health === 'ok' ? 1 : 2.5 }));
      g.appendChild(el('text', { x: p.x + 8, y: p.y + 18 }, 'link ' + l.name));
      var frac = l.capacity > 0 ? Math.min(1, l.size / l.capacity) : 0;
      g.appendChild(el('rect', { x: p.x + 8, y: p.y + 26, width: p.width - 16, height: 10, fill: '#e1e4e8', rx: 3 }));
      g.appendChild(el('rect', { class: 'depth-bar', x: p.x + 8, y: p.y + 26, width: Math.max(0, (p.width - 16) * frac), height: 10, fill: frac > 0.9 || l.stuck ? RED : '#0f62fe', rx: 3 }));
      g.appendChild(el('text', { class: 'depth', x: p.x + 8, y: p.y + 52 }, l.size + ' / ' + l.capacity));
      var age = l.oldestAgeMs > 1000 ? 'oldest ' + ago(l.oldestAgeMs) : '';
      g.appendChild(el('text', { class: 'link-state', x: p.x + 8, y: p.y + 68, fill: l.stuck ? RED : '#1d232b', 'font-weight': l.stuck ? 'bold' : 'normal' }, l.stuck ? 'STUCK: ' + l.stuck + (age ? ' · ' + age : '') : (l.state !== 'running' ? l.state + ' · ' : '') + age));
      svg.appendChild(g);
    });

    status.components.forEach(function (c) {
      var p = box['c:' + c.name];
      if (!p) return;
      var col = colour(c);
      var g = el('g', { 'data-component': c.name, 'data-state': c.status, 'data-health': c.health, class: 'component', tabindex: 0 });
      g.appendChild(el('title', {}, (c.detail || c.status) + (c.blockedBy ? ' · upstream of the stuck link ' + c.blockedBy : '')));
      g.appendChild(el('rect', { class: 'state', x: p.x, y: p.y, width: p.width, height: p.height, rx: 6, fill: col, 'fill-opacity': 0.18, stroke: col, 'stroke-width': 2 }));
      g.appendChild(el('text', { x: p.x + 8, y: p.y + 18, 'font-weight': 'bold' }, c.name));
      g.appendChild(el('text', { x: p.x + 8, y: p.y + 34 }, c.className));
      var retry = retryText(c);
      g.appendChild(el('text', { class: 'state-text', x: p.x + 8, y: p.y + 52 }, c.status + (retry ? ' · ' + retry : (c.restarts > 0 ? ' · restarts ' + c.restarts : '') + ' · done ' + c.messages.done)));
      g.appendChild(el('text', { class: 'flow-text', x: p.x + 8, y: p.y + 68 }, 'in flight ' + c.inFlight + ' · ' + rate(c.rate.out1s) + '/s'));
      if (c.parked) {
        g.appendChild(el('circle', { cx: p.x + p.width - 16, cy: p.y + 16, r: 12, fill: RED }));
        g.appendChild(el('text', { class: 'parked', x: p.x + p.width - 16, y: p.y + 20, fill: '#fff', 'text-anchor': 'middle', 'font-weight': 'bold' }, String(c.parked)));
        g.appendChild(el('title', {}, c.parked + ' parked messages'));
      }
      (c.children || []).slice(0, BOX.maxChildren).forEach(function (child, i) {
        g.appendChild(el('circle', { cx: p.x + 14, cy: p.y + BOX.height + 4 + BOX.childRow * i, r: 5, fill: stateColour(child.status) }));
        g.appendChild(el('text', { x: p.x + 24, y: p.y + BOX.height + 8 + BOX.childRow * i }, child.className + ' ' + child.name));
      });
      g.addEventListener('click', function () { openDetails(c.name); });
      g.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') openDetails(c.name); });
      svg.appendChild(g);
    });
  }

  function drawTable(status) {
    var body = document.querySelector('#components tbody');
    while (body.firstChild) body.removeChild(body.firstChild);
    status.components.forEach(function (c) {
      var tr = document.createElement('tr');
      var held = c.unsettled && c.unsettled.deliveries > 0 ? c.unsettled.deliveries + ' unsettled, oldest ' + c.unsettled.oldestAgeSeconds.toFixed(1) + ' s' : '';
      var cells = [c.name, c.className, c.status, c.health, c.restarts, c.reconnects, c.messages.in, c.messages.done, c.messages.failed, c.inFlight, c.parked || 0, rate(c.rate.out1s), [c.detail, held, retryText(c)].filter(Boolean).join('; ')];
      cells.forEach(function (v, i) {
        var td = html('td', String(v), i >= 4 && i <= 11 ? 'num' : '');
        if (i === 2) td.style.color = stateColour(c.status);
        if (i === 3) td.style.color = c.health === 'red' ? RED : c.health === 'amber' ? AMBER : GREEN;
        tr.appendChild(td);
      });
      tr.addEventListener('click', function () { openDetails(c.name); });
      body.appendChild(tr);
    });
    var slow = [];
    status.components.forEach(function (c) { (c.slowTraces || []).forEach(function (t) { slow.push([c.name, t]); }); });
    var section = document.getElementById('slow');
    section.style.display = slow.length ? 'block' : 'none';
    var sb = section.querySelector('tbody');
    while (sb.firstChild) sb.removeChild(sb.firstChild);
    slow.sort(function (a, b) { return b[1].ms - a[1].ms; }).slice(0, 20).forEach(function (s) {
      var tr = document.createElement('tr');
      [s[0], s[1].traceId, rate(s[1].ms), new Date(s[1].at).toISOString()].forEach(function (v, i) { tr.appendChild(html('td', String(v), i === 2 ? 'num' : '')); });
      sb.appendChild(tr);
    });
  }

  var open = null;
  function openDetails(name) { open = name; refreshDetails(); }
  function refreshDetails() {
    if (open === null) return;
    var name = open;
    fetch('components/' + encodeURIComponent(name)).then(function (r) { return r.json(); }).then(function (d) { if (open === name) drawDetails(d); }, function () {});
  }
  function drawDetails(d) {
    var pane = document.getElementById('details');
    while (pane.firstChild) pane.removeChild(pane.firstChild);
    pane.style.display = 'block';
    pane.setAttribute('data-component', d.status.name);
    var close = html('button', '×');
    close.style.float = 'right';
    close.addEventListener('click', function () { open = null; pane.style.display = 'none'; });
    pane.appendChild(close);
    pane.appendChild(html('h2', d.status.name));
    var dl = html('dl');
    function row(k, v, cls) { if (v === undefined || v === null || v === '') return; dl.appendChild(html('dt', k)); dl.appendChild(html('dd', String(v), cls)); }
    var s = d.status;
    row('class', s.className);
    row('state', s.status + (s.detail ? ': ' + s.detail : ''), 'detail-state');
    row('health', s.health + (s.blockedBy ? ' (upstream of the stuck link ' + s.blockedBy + ')' : ''), 'detail-health');
    if (s.nextRetryAt) row('next retry', new Date(s.nextRetryAt).toISOString() + ' (' + retryText(s) + ')', 'detail-retry');
    if (s.endpoint) Object.keys(s.endpoint).forEach(function (k) { row(k, s.endpoint[k], 'detail-endpoint'); });
    row('messages', 'in ' + s.messages.in + ' · done ' + s.messages.done + ' · failed ' + s.messages.failed + ' · in flight ' + s.inFlight);
    row('parked', s.parked);
    if (s.lastMessageAt) row('last message', ago(Date.now() - s.lastMessageAt) + ' ago');
    row('last crash', s.lastError);
    pane.appendChild(dl);
    pane.appendChild(html('h3', 'Last errors'));
    if (d.errors.length === 0) pane.appendChild(html('p', 'none'));
    else {
      var ol = html('ol', undefined, 'errors');
      d.errors.slice().reverse().forEach(function (e) { ol.appendChild(html('li', new Date(e.at).toISOString() + ' ' + e.text + (e.count > 1 ? ' (×' + e.count + ')' : ''))); });
      pane.appendChild(ol);
    }
    pane.appendChild(html('h3', 'Configuration (secrets masked)'));
    pane.appendChild(html('pre', JSON.stringify(d.config, null, 2), 'config'));
  }

  function draw(status) {
    document.getElementById('flow').textContent = status.name;
    var ready = document.getElementById('ready');
    ready.textContent = status.ready ? (status.degraded ? 'ready, degraded (a link is full)' : 'ready') : 'not ready';
    ready.className = status.ready ? (status.degraded ? 'degraded' : 'yes') : 'no';
    document.getElementById('uptime').textContent = 'up ' + Math.round(status.uptimeMs / 1000) + ' s';
    drawGraph(status);
    drawTable(status);
    refreshDetails();
  }

  // A reload (POST /reload, SIGHUP, a changed file) is announced on the stream with its receipt.
  function showReload(text) {
    var banner = document.getElementById('banner');
    var r;
    try { r = JSON.parse(text); } catch (e) { r = { summary: text }; }
    var failed = r && (r.ok === false || r.outcome === 'failed' || r.outcome === 'refused' || r.error);
    banner.className = failed ? 'failed' : '';
    banner.style.display = 'block';
    var words = r && (r.summary || r.message || r.outcome) ? String(r.summary || r.message || r.outcome) : text;
    banner.textContent = 'reload ' + new Date().toLocaleTimeString() + ': ' + words.slice(0, 500);
  }

  var conn = document.getElementById('conn');
  function poll() {
    fetch('status').then(function (r) { return r.json(); }).then(function (s) { conn.textContent = 'polling'; draw(s); }, function () { conn.textContent = 'disconnected'; });
  }
  if (window.EventSource) {
    var es = new EventSource('events');
    es.onmessage = function (e) { conn.textContent = 'live'; draw(JSON.parse(e.data)); };
    es.addEventListener('reload', function (e) { showReload(e.data); });
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
