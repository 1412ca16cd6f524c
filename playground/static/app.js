// brasp playground: a thin client over the playground's JSON API (see
// package playground). Every result shown comes from the Go code; this file
// only draws it. The API is answered by `brasp serve` when the page comes
// from it, and otherwise (a static copy written by `brasp site`) by the same
// Go code compiled to WebAssembly, in Web Workers: one for the cheap
// requests answered as you type, one for the expensive ones, each restarted
// if a computation outlives its time limit, so that no program can freeze
// the page.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const k of kids) e.append(k);
  return e;
};

const state = {
  examples: [],
  features: {},
  open: new Set(),  // panels in use, kept in the link: ltl, dfa, decompile, auto
  run: null,        // last successful /api/run response
  runSeq: 0,
  compiled: false,  // the compile panel follows edits once used
  compileSeq: 0,
  selected: null,   // {row, col} of the clicked attention cell
};

// ---- requests -------------------------------------------------------------

let pending = 0;
function setPending(d) {
  pending += d;
  document.body.dataset.pending = String(pending);
  $("status").textContent = pending > 0 ? "working…" : "";
}

// ---- transport: the server, or the WebAssembly build in Web Workers ---------

// The endpoints answered as you type; they have a worker (and on the
// server, slots) of their own, so they never wait behind expensive ones.
const CHEAP = new Set(["/api/run", "/api/simcheck", "/api/examples", "/api/features"]);
// Time limits of the worker's requests, as on the server (Config): past
// them plus a grace period, a worker whose computation has not stopped is
// terminated and restarted.
const LIMIT_MS = { cheap: 2000, expensive: 10000, grace: 3000 };
const transport = { kind: "server", workers: {}, started: performance.now() };

// WasmWorker runs the WebAssembly build in a Web Worker (worker.js).
class WasmWorker {
  constructor(cls) {
    this.cls = cls;
    this.pending = new Map();
    this.seq = 0;
    this.start();
  }
  start() {
    this.worker = new Worker("worker.js");
    this.ready = new Promise((resolve, reject) => { this.readyFns = { resolve, reject }; });
    this.worker.onmessage = (e) => {
      const m = e.data;
      if (m.ready) { this.readyFns.resolve(); return; }
      if (m.fatal) { this.readyFns.reject(new Error(m.fatal)); return; }
      const p = this.pending.get(m.id);
      if (!p) return;
      clearTimeout(p.timer);
      this.pending.delete(m.id);
      p.resolve(m);
    };
    this.worker.onerror = (e) => this.readyFns.reject(new Error(e.message || "the worker failed to start"));
  }
  // restart terminates a worker whose computation outlived its limit and
  // answers every request it held with 503.
  restart() {
    this.worker.terminate();
    this.restarts = (this.restarts || 0) + 1;
    document.body.dataset.restarts = String(Number(document.body.dataset.restarts || 0) + 1);
    const limit = LIMIT_MS[this.cls] / 1000;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.resolve(jsonReply(503, { error: `time limit exceeded: the computation did not stop within ${limit}s; the page stopped its worker and started a new one; try a shorter word or a smaller program` }));
    }
    this.pending.clear();
    this.start();
  }
  async call(method, path, body) {
    await this.ready;
    const id = ++this.seq;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.restart(), LIMIT_MS[this.cls] + LIMIT_MS.grace);
      this.pending.set(id, { resolve, timer });
      this.worker.postMessage({ id, method, path, body });
    });
  }
}

function jsonReply(status, obj) {
  return { status, contentType: "application/json", filename: "", bytes: new TextEncoder().encode(JSON.stringify(obj)) };
}

function worker(path) {
  const cls = CHEAP.has(path) ? "cheap" : "expensive";
  if (!transport.workers[cls]) transport.workers[cls] = new WasmWorker(cls);
  return transport.workers[cls];
}

// request sends one API request and returns {status, contentType,
// filename, bytes}; it never throws.
async function request(path, body) {
  const method = body === undefined ? "GET" : "POST";
  const json = body === undefined ? "" : JSON.stringify(body);
  if (transport.kind === "wasm") {
    try {
      return await worker(path).call(method, path, json);
    } catch (e) {
      return jsonReply(0, { error: "cannot start the WebAssembly build of the playground: " + e.message });
    }
  }
  try {
    const r = await fetch(path.slice(1), {
      method, headers: body === undefined ? {} : { "Content-Type": "application/json" }, body: body === undefined ? undefined : json,
    });
    const cd = r.headers.get("Content-Disposition") || "";
    const m = cd.match(/filename="([^"]*)"/);
    return { status: r.status, contentType: r.headers.get("Content-Type") || "", filename: m ? m[1] : "", bytes: new Uint8Array(await r.arrayBuffer()) };
  } catch (e) {
    return jsonReply(0, { error: "cannot reach the playground server: " + e.message });
  }
}

// api sends body to path and returns {ok, status, data}; network failures
// and non-JSON answers become errors with a message, never exceptions.
async function api(path, body) {
  setPending(1);
  try {
    const r = await request(path, body);
    let data;
    try { data = JSON.parse(new TextDecoder().decode(r.bytes)); } catch (e) { data = { error: `the playground answered ${r.status} without JSON` }; }
    return { ok: r.status >= 200 && r.status < 300, status: r.status, data };
  } finally {
    setPending(-1);
  }
}

// detectServer tells who answers the page's requests. The static site
// says so in its page (`brasp site` writes <meta name="brasp-runtime"
// content="wasm">), and then nothing is asked of a server it does not
// have. Otherwise the page asks for /api/features: a JSON answer means
// `brasp serve` is there; anything else (a static file server's 404, a
// network error) means the page runs the WebAssembly build.
async function detectServer() {
  const meta = document.querySelector('meta[name="brasp-runtime"]');
  if (meta) return meta.content === "server";
  try {
    const r = await fetch("api/features");
    if (!r.ok) return false;
    const d = await r.json();
    return d && d.runtime === "server";
  } catch (e) {
    return false;
  }
}

function debounce(f, ms) {
  let t;
  return (...args) => { clearTimeout(t); t = setTimeout(() => f(...args), ms); };
}

// ---- editor -----------------------------------------------------------------

const prog = $("program"), gutter = $("gutter"), bdText = $("bd-text");
let errorMarks = []; // [{line, col, msg}]

function escapeHTML(s) {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

// The gutter shows only the line numbers in view, so that a long program
// costs nothing to number.
const LINE = 18, PAD = 6;
let lineCount = 1;

function renderGutter() {
  lineCount = prog.value.split("\n").length;
  drawGutter();
  renderBackdrop();
}

function drawGutter() {
  const bad = new Map();
  for (const e of errorMarks) if (e.line > 0 && !bad.has(e.line)) bad.set(e.line, e.msg);
  const top = prog.scrollTop;
  const first = Math.max(0, Math.floor((top - PAD) / LINE));
  const last = Math.min(lineCount, first + Math.ceil(prog.clientHeight / LINE) + 2);
  let html = "";
  for (let i = first + 1; i <= last; i++) {
    html += bad.has(i) ? `<span class="err" title="${escapeHTML(bad.get(i))}">${i}</span>\n` : i + "\n";
  }
  gutter.innerHTML = html;
  gutter.style.paddingTop = (PAD + first * LINE - top) + "px";
}

// renderBackdrop mirrors the program, up to the last error, behind the
// transparent textarea and marks each error's token at its line and column.
function renderBackdrop() {
  const maxLine = Math.max(0, ...errorMarks.map((e) => e.line || 0));
  if (maxLine === 0) { bdText.textContent = ""; return; }
  const lines = prog.value.split("\n", maxLine);
  const byLine = new Map();
  for (const e of errorMarks) if (e.line > 0 && e.line <= lines.length && !byLine.has(e.line)) byLine.set(e.line, e.col);
  const out = lines.map((text, k) => {
    const col = byLine.get(k + 1);
    if (col === undefined) return escapeHTML(text);
    const i = Math.max(0, Math.min(col - 1, text.length));
    let j = i;
    while (j < text.length && /[\w?"]/.test(text[j])) j++;
    if (j === i) j = Math.min(text.length, i + 1);
    const tok = text.slice(i, j) || " ";
    return escapeHTML(text.slice(0, i)) + `<mark>${escapeHTML(tok)}</mark>` + escapeHTML(text.slice(j));
  });
  bdText.innerHTML = out.join("\n") + "\n";
  syncScroll();
}

function syncScroll() {
  drawGutter();
  bdText.style.transform = `translate(${-prog.scrollLeft}px, ${-prog.scrollTop}px)`;
}

// gotoPos puts the caret at a 1-based line and column (byte columns; the
// programs are ASCII outside quoted symbols).
function gotoPos(line, col) {
  const lines = prog.value.split("\n");
  let off = 0;
  for (let k = 0; k < line - 1 && k < lines.length; k++) off += lines[k].length + 1;
  off += Math.max(0, col - 1);
  prog.focus();
  prog.setSelectionRange(off, off + 1);
}

function showErrors(list) {
  errorMarks = list || [];
  const ul = $("errors");
  ul.textContent = "";
  for (const e of errorMarks) {
    const loc = e.line > 0 ? `${e.line}:${e.col}: ` : "";
    const li = el("li", { text: loc + e.msg, title: "go to the error" });
    li.dataset.line = e.line; li.dataset.col = e.col;
    if (e.line > 0) li.onclick = () => gotoPos(e.line, e.col);
    ul.append(li);
  }
  renderGutter();
}

// ---- run and the trace grid ---------------------------------------------------

function setBadge(cls, text, word) {
  const b = $("badge");
  b.className = "badge " + cls;
  b.textContent = text;
  b.dataset.word = word;
  b.dataset.program = prog.value;
}

async function runNow() {
  const seq = ++state.runSeq;
  const program = prog.value, word = $("word").value;
  saveHash();
  const r = await api("/api/run", { program, word, undeclared: $("opt-undeclared").checked });
  if (seq !== state.runSeq) return; // a newer request is on its way
  $("word-error").textContent = "";
  if (!r.ok) {
    const d = r.data;
    if (d.field === "word") {
      showErrors([]);
      $("word-error").textContent = d.error;
    } else if (d.errors && d.errors.length) {
      showErrors(d.errors);
    } else {
      showErrors([{ line: 0, col: 0, msg: d.error }]);
    }
    setBadge("error", "error", word);
    $("grid").dataset.state = "error";
    $("grid").classList.add("stale");
    $("grid").title = "the last successful run; fix the error to update it";
    return;
  }
  showErrors([]);
  state.run = r.data;
  drawGrid(r.data);
  const d = r.data;
  if (d.word.length === 0) setBadge("none", "—", word);
  else if (d.transducer) {
    if (d.output) setBadge("output", d.output.join(d.alphabet.every((s) => s.length === 1) ? "" : " "), word);
    else { setBadge("error", "no output", word); $("word-error").textContent = d.outputError; }
  } else setBadge(d.accept ? "accept" : "reject", d.accept ? "accept" : "reject", word);
  if (d.undeclared) $("word-error").textContent = `read as all-zero symbols (undeclared): ${d.undeclared.join(" ")}`;
  if (!document.body.dataset.firstResult) {
    const ms = Math.round(performance.now() - transport.started);
    document.body.dataset.firstResult = String(ms);
    $("footer").dataset.firstResult = String(ms);
  }
  if (state.compiled) compileSoon();
}
const runSoon = debounce(runNow, 150);

function drawGrid(d) {
  const t = $("grid");
  t.textContent = "";
  t.dataset.state = "ok";
  t.classList.remove("stale");
  t.title = "";
  const n = d.word.length;
  const thead = el("thead");
  const pos = el("tr", { class: "pos" }, el("th", { class: "name" }));
  const sym = el("tr", {}, el("th", { class: "name", text: "input" }));
  for (let i = 0; i < n; i++) {
    pos.append(el("th", { text: String(i + 1) }));
    sym.append(el("th", { text: d.word[i], "data-col": String(i) }));
  }
  thead.append(pos, sym);
  const tbody = el("tbody");
  d.vectors.forEach((v, k) => {
    const isOut = !d.transducer && v.name === d.outputVector;
    const tr = el("tr", { class: v.kind + (isOut ? " output" : ""), "data-row": String(k), "data-name": v.name });
    const kind = v.kind + (v.attention ? ` (${v.attention.tiebreak} [${v.attention.mask}])` : "");
    tr.append(el("th", { class: "name", text: v.name, title: `${v.def}\n${kind}, depth ${v.depth}, line ${v.line}` }));
    for (let i = 0; i < n; i++) {
      const one = v.values[i] === "1";
      const td = el("td", { class: one ? "v1" : "v0", text: one ? "1" : "0", "data-col": String(i) });
      if (isOut && i === n - 1) td.classList.add("verdict");
      if (v.attention) td.onclick = () => selectCell(k, i);
      tr.append(td);
    }
    tbody.append(tr);
  });
  if (d.transducer && d.output) {
    const tr = el("tr", { class: "outrow" }, el("th", { class: "name", text: "output" }));
    for (let i = 0; i < n; i++) tr.append(el("td", { text: d.output[i] }));
    tbody.append(tr);
  }
  t.append(thead, tbody);
  if (state.selected && state.selected.row < d.vectors.length && d.vectors[state.selected.row].attention && state.selected.col < n) {
    selectCell(state.selected.row, state.selected.col);
  } else {
    state.selected = null;
    const info = $("info");
    info.className = "muted";
    info.textContent = "Click a cell of an attention row to see which position j it attended to.";
    delete info.dataset.attended;
  }
}

// selectCell highlights, for attention vector row at position col, the
// position j it attended to (the whole column) and explains it.
function selectCell(row, col) {
  const d = state.run;
  const v = d.vectors[row];
  state.selected = { row, col };
  const t = $("grid");
  t.querySelectorAll(".attended, .query").forEach((e) => e.classList.remove("attended", "query"));
  const tr = t.querySelector(`tbody tr[data-row="${row}"]`);
  tr.querySelector(`td[data-col="${col}"]`).classList.add("query");
  const info = $("info");
  info.className = "on";
  const i = col + 1;
  if (!v.attention.attended) {
    info.textContent = `${v.name} at i = ${i}: the word is too long for the playground to show attention.`;
    return;
  }
  const j = v.attention.attended[col];
  info.dataset.attended = String(j);
  info.dataset.vector = v.name;
  info.dataset.i = String(i);
  if (j === 0) {
    info.textContent = `${v.name} at i = ${i}: no position allowed by the mask [${v.attention.mask}] has score 1, so the default was used → ${v.values[col]}.   (${v.def})`;
    return;
  }
  t.querySelectorAll(`[data-col="${j - 1}"]`).forEach((e) => e.classList.add("attended"));
  info.textContent = `${v.name} at i = ${i} attended to j = ${j} (${v.attention.tiebreak} [${v.attention.mask}], symbol ${d.word[j - 1]}) → ${v.values[col]}.   (${v.def})`;
}

// ---- compile -----------------------------------------------------------------

function compileBody() {
  return { program: prog.value, word: $("word").value, multihead: $("opt-multihead").checked, layernorm: $("opt-layernorm").checked };
}

async function compileNow() {
  state.compiled = true;
  saveHash();
  const seq = ++state.compileSeq;
  const r = await api("/api/compile", compileBody());
  if (seq !== state.compileSeq) return;
  const out = $("compile-result");
  out.textContent = "";
  $("compile-error").textContent = "";
  out.dataset.state = r.ok ? "ok" : "error";
  $("dl-json").disabled = $("dl-safetensors").disabled = !r.ok;
  if (!r.ok) { $("compile-error").textContent = r.data.error; return; }
  const c = r.data;
  const row = (k, v, id) => el("tr", {}, el("td", { text: k }), el("td", { text: String(v), id }));
  out.append(el("table", { class: "summary" },
    row("layers", c.layers + (c.attentionLayers !== c.layers ? ` (${c.attentionLayers} with attention)` : ""), "c-layers"),
    row("heads", c.heads, "c-heads"), row("width d", c.width, "c-width"), row("parameters", c.params, "c-params")));
  const verdicts = el("div", { class: "verdicts" });
  if (c.programAccept !== undefined) {
    const badge = (a, id) => el("span", { id, class: "badge " + (a ? "accept" : "reject"), text: a ? "accept" : "reject" });
    verdicts.append(el("span", { text: "program:" }), badge(c.programAccept, "program-verdict"),
      el("span", { text: "transformer:" }), badge(c.modelAccept, "model-verdict"),
      el("span", { id: "agree", class: c.agree ? "yes" : "no", text: c.agree ? "✓ agree" : "✗ DISAGREE" }),
      el("span", { class: "muted", text: `output score ${c.outputScore}` }));
  }
  out.append(verdicts);
  if (c.note) out.append(el("div", { class: "muted", text: c.note }));
  const heads = el("div", { class: "heads", id: "heads" });
  const word = state.run ? state.run.word : [];
  c.layerInfo.forEach((L, l) => {
    if (!L.heads || L.heads.length === 0) return;
    const box = el("div", { class: "layer" }, el("h3", { text: `layer ${l + 1}` + (L.ffnHidden ? ` · FFN ${L.ffnHidden} hidden` : "") }));
    L.heads.forEach((h, k) => {
      const cap = el("div", { class: "cap", text: `head ${k + 1}: ${h.tiebreak} [${h.mask}] writes ${(h.writes || []).join(", ") || "nothing"}`,
        title: `score reads ${(h.queryReads || []).join(", ") || "nothing"} at i and ${(h.keyReads || []).join(", ") || "nothing"} at j\nvalue reads ${(h.valueReads || []).join(", ") || "nothing"} at j` });
      const hd = el("div", { class: "head", "data-layer": String(l), "data-head": String(k) }, cap);
      if (h.attended) hd.append(patternTable(h.attended, word));
      hd.dataset.attended = (h.attended || []).join(",");
      box.append(hd);
    });
    heads.append(box);
  });
  out.append(heads);
  const labels = el("details", {}, el("summary", { text: `the ${c.width} residual coordinates` }),
    el("pre", { class: "out", text: c.labels.map((l, k) => `${String(k).padStart(3)}  ${l}`).join("\n") }));
  out.append(labels);
}
const compileSoon = debounce(compileNow, 250);

// patternTable draws a head's attention as an n×n matrix: row i (query),
// column j (attended), filled where the head attends.
function patternTable(att, word) {
  const n = att.length;
  const t = el("table", { class: "pattern", title: "rows: query position i; columns: attended position j" });
  const head = el("tr", {}, el("th"));
  for (let j = 0; j < n; j++) head.append(el("th", { text: word[j] || String(j + 1) }));
  t.append(head);
  for (let i = 0; i < n; i++) {
    const tr = el("tr", {}, el("th", { text: String(i + 1) }));
    for (let j = 0; j < n; j++) tr.append(el("td", { class: att[i] === j + 1 ? "hit" : "" }));
    t.append(tr);
  }
  return t;
}

async function download(format) {
  setPending(1);
  try {
    const r = await request("/api/model", { ...compileBody(), word: undefined, format });
    if (r.status !== 200) {
      let msg = `${r.status}`;
      try { msg = JSON.parse(new TextDecoder().decode(r.bytes)).error; } catch (e) { /* keep the status */ }
      $("compile-error").textContent = msg;
      return;
    }
    const blob = new Blob([r.bytes], { type: r.contentType });
    const a = el("a", { href: URL.createObjectURL(blob), download: r.filename || "model." + format });
    // For tests: what was offered for download.
    document.body.dataset.download = `${a.download} ${r.bytes.length}`;
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    setPending(-1);
  }
}

// ---- decompile ----------------------------------------------------------------

async function decompileNow() {
  openPanel("decompile");
  for (const id of ["decompile-out", "decompile-meta", "decompile-error"]) $(id).textContent = "";
  $("decompile-load").disabled = true;
  const b = compileBody();
  const r = await api("/api/decompile", { program: b.program, multihead: b.multihead, layernorm: b.layernorm, smaller: $("opt-smaller").checked });
  if (!r.ok) { $("decompile-error").textContent = r.data.error; return; }
  const d = r.data;
  $("decompile-out").textContent = d.program;
  $("decompile-load").disabled = false;
  let eq = "";
  if (d.equivalent === true) eq = " · exactly equivalent to your program";
  else if (d.equivalent === false) eq = ` · NOT equivalent: they differ on "${d.counterexample}"`;
  else if (d.equivError) eq = " · equivalence not decided: " + d.equivError;
  $("decompile-meta").textContent = `${d.vectors} vectors, attention depth ${d.attentionDepth} (model: ${d.modelLayers} attention layers)` + eq;
  $("decompile-meta").dataset.equivalent = String(d.equivalent);
}

// ---- LTL ------------------------------------------------------------------------

async function toLTL() {
  openPanel("ltl");
  $("ltl-error").textContent = "";
  $("ltl-out").textContent = "";
  const r = await api("/api/ltl", { program: prog.value });
  if (!r.ok) { $("ltl-error").textContent = r.data.error; return; }
  $("ltl-out").textContent = r.data.ltl;
  $("ltl-meta").textContent = `temporal depth ${r.data.depth} (program attention depth ${r.data.attentionDepth}) · DAG ${r.data.dagSize} nodes, tree ${r.data.treeSize}`;
}

async function fromLTL() {
  $("ltl-errors").textContent = "";
  $("ltl-prog").textContent = "";
  $("ltl-load").disabled = true;
  const r = await api("/api/ltl", { ltl: $("ltl-in").value });
  if (!r.ok) {
    const list = r.data.errors && r.data.errors.length ? r.data.errors : [{ line: 0, msg: r.data.error }];
    for (const e of list) $("ltl-errors").append(el("li", { text: (e.line > 0 ? `${e.line}:${e.col}: ` : "") + e.msg }));
    return;
  }
  $("ltl-prog").textContent = r.data.program;
  $("ltl-load").disabled = false;
}

// ---- DFA --------------------------------------------------------------------------

// showClassification fills box with the three answers and the witnesses;
// when the language is stutter-invariant and star-free, it offers the
// programs of Thm 5.2 for input (kind and source).
function showClassification(box, d, input) {
  const yn = (b) => el("span", { class: b ? "yes" : "no", text: b ? "yes" : "no" });
  const ul = el("ul", {},
    el("li", {}, "star-free: ", yn(d.starFree)),
    el("li", {}, "stutter-invariant: ", yn(d.stutterInvariant)),
    el("li", {}, "AC0: ", d.ac0Unknown ? el("span", { class: "muted", text: "unknown", title: d.ac0Unknown }) : yn(d.ac0)),
    el("li", { class: "muted", text: `${d.states} states` + (d.note ? " · " + d.note : "") }));
  box.append(ul, el("pre", { class: "out", text: d.classification }));
  if (d.starFree && d.stutterInvariant && input) box.append(nonStrictBox(input));
}

// nonStrictBox offers the non-strict and causal programs of Thm 5.2.
function nonStrictBox(input) {
  const meta = el("span", { class: "muted" });
  const err = el("div", { class: "error-line" });
  const out = el("pre", { class: "out" });
  const load = el("button", { type: "button", disabled: true, text: "Load into the editor" });
  load.addEventListener("click", () => { prog.value = out.textContent; prog.dispatchEvent(new Event("input")); });
  const build = (masks) => async () => {
    err.textContent = ""; out.textContent = ""; meta.textContent = ""; load.disabled = true;
    const r = await api("/api/nonstrict", { kind: input.kind, source: input.source, masks });
    if (!r.ok) { err.textContent = r.data.error; return; }
    out.textContent = r.data.program;
    meta.textContent = `${masks}: ${r.data.attentionOps} attention operations, attention depth ${r.data.attentionDepth}`;
    load.disabled = false;
  };
  const ns = el("button", { type: "button", text: "Build the non-strict program (Thm 5.2)" });
  const causal = el("button", { type: "button", text: "Build the causal program" });
  ns.addEventListener("click", build("non-strict"));
  causal.addEventListener("click", build("causal"));
  return el("div", { class: "nonstrict" }, el("div", { class: "row" }, ns, " ", causal, " ", load, " ", meta), err, out);
}

async function automaton() {
  openPanel("auto");
  for (const id of ["auto-errors", "auto-class", "auto-svg", "auto-perr", "auto-prog", "auto-cascade"]) $(id).textContent = "";
  $("auto-load").disabled = true;
  const r = await api("/api/automaton", { kind: $("auto-kind").value, source: $("auto-in").value });
  if (!r.ok) {
    const list = r.data.errors && r.data.errors.length ? r.data.errors : [{ line: 0, msg: r.data.error }];
    for (const e of list) $("auto-errors").append(el("li", { text: (e.line > 0 ? `${e.line}:${e.col}: ` : "") + e.msg }));
    return;
  }
  const d = r.data;
  showClassification($("auto-class"), d, { kind: $("auto-kind").value, source: $("auto-in").value });
  if (d.svg) $("auto-svg").innerHTML = d.svg; // drawn by the server's Go code, names escaped
  $("auto-perr").textContent = d.programError || "";
  $("auto-prog").textContent = d.program || "";
  $("auto-cascade").textContent = d.cascade || "";
  $("auto-load").disabled = !d.program;
}

async function toDFA() {
  openPanel("dfa");
  $("dfa-error").textContent = "";
  $("dfa-svg").textContent = "";
  $("dfa-class").textContent = "";
  $("dfa-text").textContent = "";
  $("dfa-meta").textContent = "";
  const r = await api("/api/dfa", { program: prog.value });
  if (!r.ok) { $("dfa-error").textContent = r.data.error; return; }
  const d = r.data;
  showClassification($("dfa-class"), d, { kind: "brasp", source: prog.value });
  if (d.svg) $("dfa-svg").innerHTML = d.svg; // drawn by the server's Go code, names escaped
  $("dfa-text").textContent = d.dfa;
}

// ---- URL, presets, start-up -------------------------------------------------------

// openPanel records that a panel is in use, so that a link opens it again.
function openPanel(name) {
  if (!state.open.has(name)) { state.open.add(name); saveHash(); }
}

// PANELS are the panels a link can open, in the order they are restored.
const PANELS = ["ltl", "dfa", "decompile", "auto"];

// saveHash keeps the session in the URL's fragment: the program, the word,
// the options, whether the compile panel is in use, and the other panels in
// use with their inputs, so that a link reproduces the session.
function saveHash() {
  let h = "#p=" + encodeURIComponent(prog.value) + "&w=" + encodeURIComponent($("word").value);
  if ($("opt-multihead").checked) h += "&mh=1";
  if ($("opt-layernorm").checked) h += "&ln=1";
  if ($("opt-undeclared").checked) h += "&u=1";
  if (state.compiled) h += "&c=1";
  const open = PANELS.filter((p) => state.open.has(p));
  if (open.length) h += "&o=" + open.join(",");
  if (state.open.has("ltl") && $("ltl-in").value !== $("ltl-in").defaultValue) h += "&li=" + encodeURIComponent($("ltl-in").value);
  if (state.open.has("auto")) h += "&ak=" + $("auto-kind").value + "&ai=" + encodeURIComponent($("auto-in").value);
  if (state.open.has("decompile") && $("opt-smaller").checked) h += "&sm=1";
  if (location.hash === h) return;
  try {
    if (h.length > 1 << 20) throw new Error("too long");
    history.replaceState(null, "", h);
  } catch (e) {
    // A very long program does not fit in a URL; keep the last link.
    $("status").textContent = "the program is too long to keep in the link";
  }
}

function loadHash() {
  if (!location.hash.startsWith("#")) return false;
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has("p")) return false;
  prog.value = params.get("p");
  $("word").value = params.get("w") || "";
  $("opt-multihead").checked = params.get("mh") === "1";
  $("opt-layernorm").checked = params.get("ln") === "1";
  $("opt-undeclared").checked = params.get("u") === "1";
  $("opt-smaller").checked = params.get("sm") === "1";
  if (params.has("li")) $("ltl-in").value = params.get("li");
  if (params.has("ak")) $("auto-kind").value = params.get("ak") === "dfa" ? "dfa" : "re";
  if (params.has("ai")) $("auto-in").value = params.get("ai");
  state.open = new Set((params.get("o") || "").split(",").filter((p) => PANELS.includes(p)));
  // c=1: compile as well (runNow follows with the compile panel).
  state.compiled = params.get("c") === "1";
  if (!state.compiled) {
    $("compile-result").textContent = $("compile-error").textContent = "";
    delete $("compile-result").dataset.state;
    $("dl-json").disabled = $("dl-safetensors").disabled = true;
  }
  const ex = state.examples.findIndex((e) => e.source === prog.value);
  $("preset").value = ex >= 0 ? state.examples[ex].name : "";
  return true;
}

function loadPreset(name) {
  const ex = state.examples.find((e) => e.name === name);
  if (!ex) return;
  prog.value = ex.source;
  $("word").value = ex.word;
  state.selected = null;
  clearDerived();
  showErrors([]);
  runNow();
}

// openPanels reruns the panels a link says were in use.
function openPanels() {
  if (state.open.has("ltl")) toLTL();
  if (state.open.has("dfa")) toDFA();
  if (state.open.has("decompile")) decompileNow();
  if (state.open.has("auto")) automaton();
}

async function start() {
  transport.kind = (await detectServer()) ? "server" : "wasm";
  document.body.dataset.runtime = transport.kind;
  $("footer").textContent = transport.kind === "server"
    ? "Runs locally: the page calls this server's JSON API (/api/…); nothing is loaded from elsewhere."
    : "Runs in your browser: the playground's Go code compiled to WebAssembly, in Web Workers; no server, nothing is loaded from elsewhere.";
  const [ex, feat] = await Promise.all([api("/api/examples"), api("/api/features")]);
  state.examples = ex.ok ? ex.data : [];
  state.features = feat.ok ? feat.data : {};
  const sel = $("preset");
  sel.append(el("option", { value: "", text: "(your program)" }));
  for (const e of state.examples) sel.append(el("option", { value: e.name, text: e.title || e.name }));
  if (!loadHash()) {
    const first = state.examples.find((e) => e.name === "dyck1_depth2.brasp") || state.examples[0];
    if (first) { sel.value = first.name; prog.value = first.source; $("word").value = first.word; }
  }
  renderGutter();
  document.body.dataset.ready = "1";
  runNow();
  openPanels();
}

// ---- the simulator ---------------------------------------------------------------

async function simCheck() {
  const box = $("simcheck");
  box.textContent = "";
  delete box.dataset.same;
  const r = await api("/api/simcheck", { program: prog.value, word: $("word").value });
  if (!r.ok) { box.textContent = r.data.error; box.dataset.same = "error"; return; }
  box.dataset.same = String(r.data.same);
  if (r.data.same) { box.append(el("span", { class: "same", text: "✓ brasp reads this program and word as the B-RASP simulator does" })); return; }
  box.append(el("span", { text: "brasp reads these differently from the B-RASP simulator:" }));
  const ul = el("ul");
  for (const d of r.data.differences) {
    const li = el("li", { text: (d.line > 0 ? `line ${d.line}: ` : "") + d.msg });
    if (d.line > 0) { li.style.cursor = "pointer"; li.onclick = () => gotoPos(d.line, 1); }
    ul.append(li);
  }
  box.append(ul);
}

// clearDerived empties the LTL and DFA results, which belong to the
// program as it was when their button was pressed.
function clearDerived() {
  state.open.clear();
  $("simcheck").textContent = "";
  for (const id of ["ltl-out", "ltl-meta", "ltl-error", "dfa-svg", "dfa-class", "dfa-text", "dfa-meta", "dfa-error", "decompile-out", "decompile-meta", "decompile-error"]) $(id).textContent = "";
  $("decompile-load").disabled = true;
}

prog.addEventListener("input", () => { $("preset").value = ""; clearDerived(); renderGutter(); runSoon(); });
prog.addEventListener("scroll", syncScroll);
prog.addEventListener("keydown", (e) => {
  if (e.key === "Tab") { e.preventDefault(); document.execCommand("insertText", false, "    "); }
});
$("word").addEventListener("input", runSoon);
$("preset").addEventListener("change", (e) => loadPreset(e.target.value));
$("compile-btn").addEventListener("click", compileNow);
for (const id of ["opt-multihead", "opt-layernorm"]) {
  $(id).addEventListener("change", () => { saveHash(); if (state.compiled) compileNow(); });
}
$("dl-json").addEventListener("click", () => download("json"));
$("dl-safetensors").addEventListener("click", () => download("safetensors"));
$("ltl-btn").addEventListener("click", toLTL);
$("ltl-to-prog").addEventListener("click", fromLTL);
$("ltl-load").addEventListener("click", () => {
  prog.value = $("ltl-prog").textContent;
  $("preset").value = "";
  renderGutter();
  runNow();
});
$("dfa-btn").addEventListener("click", toDFA);
$("decompile-btn").addEventListener("click", decompileNow);
$("auto-btn").addEventListener("click", automaton);
$("auto-load").addEventListener("click", () => {
  prog.value = $("auto-prog").textContent;
  $("preset").value = "";
  clearDerived();
  renderGutter();
  runNow();
});
$("decompile-load").addEventListener("click", () => {
  prog.value = $("decompile-out").textContent;
  $("preset").value = "";
  clearDerived();
  renderGutter();
  runNow();
});
$("share").addEventListener("click", async () => {
  saveHash();
  try { await navigator.clipboard.writeText(location.href); $("status").textContent = "link copied"; }
  catch (e) { $("status").textContent = "copy the address bar: it holds the program, the word and the compile options"; }
});
$("opt-undeclared").addEventListener("change", runNow);
$("simcheck-btn").addEventListener("click", simCheck);
$("paste-sim").addEventListener("click", () => { $("paste-in").value = ""; $("paste-dialog").showModal(); });
$("paste-dialog").addEventListener("close", () => {
  if ($("paste-dialog").returnValue !== "load") return;
  prog.value = $("paste-in").value;
  $("preset").value = "";
  clearDerived();
  renderGutter();
  runNow();
  simCheck();
});
window.addEventListener("hashchange", () => { if (loadHash()) { renderGutter(); runNow(); openPanels(); } });
start();
