// brasp playground: a thin client over the server's JSON API (see package
// playground). Every result shown comes from the Go code; this file only
// draws it.
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

// api posts body to path and returns {ok, status, data}; network failures
// and non-JSON answers become errors with a message, never exceptions.
async function api(path, body) {
  setPending(1);
  try {
    const r = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data;
    try { data = await r.json(); } catch (e) { data = { error: `the server answered ${r.status} ${r.statusText} without JSON` }; }
    return { ok: r.ok, status: r.status, data };
  } catch (e) {
    return { ok: false, status: 0, data: { error: "cannot reach the playground server: " + e.message } };
  } finally {
    setPending(-1);
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
  const r = await api("/api/run", { program, word });
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
    const r = await fetch("/api/model", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...compileBody(), word: undefined, format }) });
    if (!r.ok) {
      let msg = `${r.status}`;
      try { msg = (await r.json()).error; } catch (e) { /* keep the status */ }
      $("compile-error").textContent = msg;
      return;
    }
    const blob = await r.blob();
    const a = el("a", { href: URL.createObjectURL(blob), download: "model." + format });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (e) {
    $("compile-error").textContent = "download failed: " + e.message;
  } finally {
    setPending(-1);
  }
}

// ---- decompile ----------------------------------------------------------------

async function decompileNow() {
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

// showClassification fills box with the three answers and the witnesses.
function showClassification(box, d) {
  const yn = (b) => el("span", { class: b ? "yes" : "no", text: b ? "yes" : "no" });
  const ul = el("ul", {},
    el("li", {}, "star-free: ", yn(d.starFree)),
    el("li", {}, "stutter-invariant: ", yn(d.stutterInvariant)),
    el("li", {}, "AC0: ", yn(d.ac0)),
    el("li", { class: "muted", text: `${d.states} states` + (d.note ? " · " + d.note : "") }));
  box.append(ul, el("pre", { class: "out", text: d.classification }));
}

async function automaton() {
  for (const id of ["auto-errors", "auto-class", "auto-svg", "auto-perr", "auto-prog", "auto-cascade"]) $(id).textContent = "";
  $("auto-load").disabled = true;
  const r = await api("/api/automaton", { kind: $("auto-kind").value, source: $("auto-in").value });
  if (!r.ok) {
    const list = r.data.errors && r.data.errors.length ? r.data.errors : [{ line: 0, msg: r.data.error }];
    for (const e of list) $("auto-errors").append(el("li", { text: (e.line > 0 ? `${e.line}:${e.col}: ` : "") + e.msg }));
    return;
  }
  const d = r.data;
  showClassification($("auto-class"), d);
  if (d.svg) $("auto-svg").innerHTML = d.svg; // drawn by the server's Go code, names escaped
  $("auto-perr").textContent = d.programError || "";
  $("auto-prog").textContent = d.program || "";
  $("auto-cascade").textContent = d.cascade || "";
  $("auto-load").disabled = !d.program;
}

async function toDFA() {
  $("dfa-error").textContent = "";
  $("dfa-svg").textContent = "";
  $("dfa-class").textContent = "";
  $("dfa-text").textContent = "";
  $("dfa-meta").textContent = "";
  const r = await api("/api/dfa", { program: prog.value });
  if (!r.ok) { $("dfa-error").textContent = r.data.error; return; }
  const d = r.data;
  showClassification($("dfa-class"), d);
  if (d.svg) $("dfa-svg").innerHTML = d.svg; // drawn by the server's Go code, names escaped
  $("dfa-text").textContent = d.dfa;
}

// ---- URL, presets, start-up -------------------------------------------------------

// saveHash keeps the session in the URL's fragment: the program, the word,
// the compile options and whether the compile panel is in use, so that a
// link reproduces the run and the compile panel.
function saveHash() {
  let h = "#p=" + encodeURIComponent(prog.value) + "&w=" + encodeURIComponent($("word").value);
  if ($("opt-multihead").checked) h += "&mh=1";
  if ($("opt-layernorm").checked) h += "&ln=1";
  if (state.compiled) h += "&c=1";
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
  // c=1: compile as well (runNow follows with the compile panel).
  state.compiled = params.get("c") === "1" && !!state.features.compile;
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

async function start() {
  const [ex, feat] = await Promise.all([api("/api/examples"), api("/api/features")]);
  state.examples = ex.ok ? ex.data : [];
  state.features = feat.ok ? feat.data : {};
  const sel = $("preset");
  sel.append(el("option", { value: "", text: "(your program)" }));
  for (const e of state.examples) sel.append(el("option", { value: e.name, text: e.title || e.name }));
  $("panel-compile").hidden = !state.features.compile;
  $("panel-ltl").hidden = !state.features.ltl;
  $("panel-dfa").hidden = !state.features.dfa;
  $("decompile-box").hidden = !state.features.decompile;
  $("automaton-box").hidden = !state.features.automaton;
  if (state.features.automaton) $("panel-dfa").hidden = false;
  if (!loadHash()) {
    const first = state.examples.find((e) => e.name === "dyck1_depth2.brasp") || state.examples[0];
    if (first) { sel.value = first.name; prog.value = first.source; $("word").value = first.word; }
  }
  renderGutter();
  document.body.dataset.ready = "1";
  runNow();
}

// clearDerived empties the LTL and DFA results, which belong to the
// program as it was when their button was pressed.
function clearDerived() {
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
window.addEventListener("hashchange", () => { if (loadHash()) { renderGutter(); runNow(); } });
start();
