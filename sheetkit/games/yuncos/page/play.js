// Yuncos move entry (yuncos/move_form.html: the play page's turn, and the fix page's turn
// fixed): taps on the map's grid points become the turn's
// flight, written into the form's `flight` field in sheetkit's notation ("E E N", "NE");
// a tap on a puzzle of the drawn sheet chooses that puzzle. Nothing is sent before the
// form is: the server checks the move. Without this script the fields can be typed.
(function () {
  "use strict";
  var box = document.getElementById("yu-map");
  var field = document.getElementById("flight");
  if (!box || !field) return;
  var svg = box.querySelector("svg");
  var g = JSON.parse(box.getAttribute("data-geometry"));
  var NS = "http://www.w3.org/2000/svg";
  var STEP = {N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0], NE: [1, -1], NW: [-1, -1], SE: [1, 1], SW: [-1, 1]};
  var NAME = {};
  Object.keys(STEP).forEach(function (k) { NAME[STEP[k].join(",")] = k; });
  var startField = document.getElementById("start");
  var home = g.pos.slice();      // where this turn's flight starts
  var origin = home.slice();
  var taps = [];                 // each tap: the steps it added
  var whole = true;

  function el(name, attrs) {
    var e = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function at(v) { return [g.x + v[0] * g.sq, g.y + v[1] * g.sq]; }

  var layer = el("g", {"class": "yu-taps"});
  var line = el("polyline", {fill: "none", stroke: "#1565c0", "stroke-width": 0.9, "stroke-linejoin": "round",
                             "stroke-linecap": "round"});
  var ring = el("circle", {r: 1.9, fill: "none", stroke: "#1565c0", "stroke-width": 0.6});
  var head = el("circle", {r: 1.1, fill: "#1565c0"});
  layer.appendChild(line); layer.appendChild(ring); layer.appendChild(head);
  svg.appendChild(layer);
  var full = svg.getAttribute("viewBox");

  function steps() { return [].concat.apply([], taps); }
  function points() {
    var p = origin.slice(), out = [p];
    steps().forEach(function (s) { p = [p[0] + STEP[s][0], p[1] + STEP[s][1]]; out.push(p); });
    return out;
  }
  function draw(write) {
    var pts = points();
    line.setAttribute("points", pts.map(function (v) { return at(v).join(","); }).join(" "));
    var o = at(origin), e = at(pts[pts.length - 1]);
    ring.setAttribute("cx", o[0]); ring.setAttribute("cy", o[1]);
    head.setAttribute("cx", e[0]); head.setAttribute("cy", e[1]);
    if (write) field.value = steps().join(" ");
    zoom(pts[pts.length - 1]);
  }

  // Zoomed in, the map shows 7 x 5 points around the flight's end, so that points are a
  // thumb's width (44 px or more) apart on a 360 px phone; "whole map" shows all of it.
  function show(box) {  // the drawn size follows the part shown (the page sizes the svg by its width)
    var b = box.split(" ");
    svg.setAttribute("viewBox", box);
    svg.setAttribute("width", b[2] + "mm");
    svg.setAttribute("height", b[3] + "mm");
  }
  function zoom(v) {
    if (whole) { show(full); return; }
    var cols = Math.min(6, g.w - 1), rows = Math.min(4, g.h - 1);  // wider than tall: the dice and the puzzle fit below
    var c0 = Math.max(0, Math.min(g.w - 1 - cols, v[0] - Math.round(cols / 2)));
    var r0 = Math.max(0, Math.min(g.h - 1 - rows, v[1] - Math.round(rows / 2)));
    var m = g.sq * 0.7;
    show([g.x + c0 * g.sq - m, g.y + r0 * g.sq - m, cols * g.sq + 2 * m, rows * g.sq + 2 * m].join(" "));
  }

  function pointOf(evt) {
    var pt = svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    var p = pt.matrixTransform(svg.getScreenCTM().inverse());
    var c = Math.round((p.x - g.x) / g.sq), r = Math.round((p.y - g.y) / g.sq);
    return [Math.max(0, Math.min(g.w - 1, c)), Math.max(0, Math.min(g.h - 1, r))];
  }
  function startAt(v) {
    var ks = Object.keys(g.starts);
    for (var i = 0; i < ks.length; i++) if (g.starts[ks[i]][0] === v[0] && g.starts[ks[i]][1] === v[1]) return ks[i];
    return null;
  }

  svg.addEventListener("click", function (evt) {
    var v = pointOf(evt);
    var pts = points(), last = pts[pts.length - 1];
    var n = startAt(v);
    if (g.first && !taps.length && n !== null && startField) {  // the first turn starts where the player chose
      origin = v; startField.value = n; draw(true); return;
    }
    var dx = v[0] - last[0], dy = v[1] - last[1];
    if (!dx && !dy) return;
    if (dx && dy && Math.abs(dx) !== Math.abs(dy)) { box.classList.add("yu-bad"); setTimeout(function () { box.classList.remove("yu-bad"); }, 400); return; }
    var k = Math.max(Math.abs(dx), Math.abs(dy)), name = NAME[[Math.sign(dx), Math.sign(dy)].join(",")], add = [];
    for (var i = 0; i < k; i++) add.push(name);
    taps.push(add);
    draw(true);
  });

  document.getElementById("tap-back").addEventListener("click", function () {
    if (taps.length) taps.pop();
    else if (g.first) { origin = home.slice(); }
    draw(true);
  });
  document.getElementById("tap-clear").addEventListener("click", function () {
    taps = []; origin = home.slice();
    if (startField && g.first) { var n = startAt(home); if (n !== null) startField.value = n; }
    draw(true);
  });
  var zb = document.getElementById("map-zoom");
  zb.addEventListener("click", function () {
    whole = !whole;
    zb.textContent = whole ? zb.getAttribute("data-zoom") : zb.getAttribute("data-whole");
    draw(false);
  });

  // A flight typed (or kept by the page after an error) is drawn too.
  function parse(text) {
    var out = [];
    text.trim().toUpperCase().split(/[\s,]+/).forEach(function (tok) {
      if (!tok) return;
      if (STEP[tok] && tok.length === 2) { out.push(tok); return; }
      var m = /^([0-9]{1,2})([NESW])$/.exec(tok);
      if (m) { for (var i = 0; i < +m[1]; i++) out.push(m[2]); return; }
      for (var j = 0; j < tok.length; j++) if (STEP[tok[j]]) out.push(tok[j]);
    });
    return out;
  }
  field.addEventListener("input", function () { taps = [parse(field.value)]; draw(false); });
  if (startField && g.first && g.starts[startField.value]) origin = g.starts[startField.value].slice();
  if (startField) startField.addEventListener("change", function () {
    if (g.starts[startField.value]) { origin = g.starts[startField.value].slice(); draw(false); }
  });
  taps = field.value ? [parse(field.value)] : [];
  whole = false;
  zb.textContent = zb.getAttribute("data-whole");
  draw(false);

  // A tap on a puzzle of the drawn sheet chooses it.
  var pz = document.getElementById("yu-puzzles");
  var psvg = pz && pz.querySelector("svg");
  if (psvg) psvg.addEventListener("click", function (evt) {
    var pt = psvg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    var p = pt.matrixTransform(psvg.getScreenCTM().inverse());
    g.regions.forEach(function (r) {
      var b = r.box, m = 1.5;
      if (p.x >= b[0] - m && p.x <= b[0] + b[2] + m && p.y >= b[1] - m && p.y <= b[1] + b[3] + m) {
        var input = document.querySelector('#puzzle-' + r.cell + ' input');
        if (input) input.checked = true;
      }
    });
  });
})();
