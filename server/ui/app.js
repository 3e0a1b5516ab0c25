// graphrag's page: ask, watch the graph think, open the sources.
// It is a view of the same event stream as `graphrag run --trace`: POST
// /v1/query with "stream": "ndjson", one event per line. No framework, no
// external assets; every text from the server goes in through textContent.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const store = window.sessionStorage; // the token and the threads leave with the tab

// ---------- API ----------

function token() { return store.getItem("graphrag.token") || ""; }

async function api(path, init = {}) {
  const headers = new Headers(init.headers || {});
  if (token()) headers.set("Authorization", "Bearer " + token());
  if (init.body) headers.set("Content-Type", "application/json");
  const resp = await fetch(path, { ...init, headers, credentials: "omit" });
  if (resp.status === 401) {
    showLogin(true);
    throw new Error("this server needs a token: enter it above");
  }
  if (!resp.ok) {
    let msg = resp.status + " " + resp.statusText;
    try { const e = await resp.json(); if (e.error) msg = e.error.message; } catch (_) { /* not JSON */ }
    throw new Error(msg);
  }
  return resp;
}

function showLogin(show) {
  $("login").hidden = !show;
  $("logout").hidden = show || !token();
  if (show) $("token").focus();
}

// ---------- threads ----------

let threads = JSON.parse(store.getItem("graphrag.threads") || "[]");
let current = Number(store.getItem("graphrag.current") || "0");

function saveThreads() {
  store.setItem("graphrag.threads", JSON.stringify(threads));
  store.setItem("graphrag.current", String(current));
}

function thread() {
  if (!threads[current]) { threads[current] = { title: "", turns: [] }; }
  return threads[current];
}

function renderThreads() {
  const list = $("thread-list");
  list.replaceChildren();
  threads.forEach((t, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = t.title || "New conversation";
    b.setAttribute("aria-current", i === current ? "true" : "false");
    b.addEventListener("click", () => { current = i; saveThreads(); renderThreads(); renderTurns(); });
    li.append(b);
    list.append(li);
  });
}

function renderTurns() {
  const ol = $("turns");
  ol.replaceChildren();
  for (const t of thread().turns) ol.append(turnView(t.query, t.result, t.text));
}

// ---------- answers ----------

// answerNodes renders text with each [N] as a button that opens source N.
function answerNodes(text, result) {
  const out = [];
  const re = /\[(\d+)\]/g;
  let last = 0, m;
  while ((m = re.exec(text)) !== null) {
    out.push(document.createTextNode(text.slice(last, m.index)));
    const n = Number(m[1]);
    const cit = result && (result.citations || []).find((c) => c.n === n);
    if (cit) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "cite";
      b.dataset.n = String(n);
      b.textContent = "[" + n + "]";
      b.setAttribute("aria-label", "open source " + n + ": " + (cit.title || cit.path || cit.doc_id));
      b.addEventListener("click", () => openPassage(cit, result));
      out.push(b);
    } else {
      out.push(document.createTextNode(m[0]));
    }
    last = re.lastIndex;
  }
  out.push(document.createTextNode(text.slice(last)));
  return out;
}

function turnView(query, result, text) {
  const li = document.createElement("li");
  li.className = "turn";
  const q = document.createElement("p");
  q.className = "question";
  q.textContent = query;
  const a = document.createElement("p");
  a.className = "answer";
  li.append(q, a);
  if (result) finishTurn(li, result); else a.textContent = text || "";
  return li;
}

function finishTurn(li, result) {
  const a = li.querySelector(".answer");
  a.replaceChildren(...answerNodes(result.answer || "", result));
  a.classList.add("done");
  const meta = document.createElement("p");
  meta.className = "meta";
  const parts = [];
  if (result.abstained) parts.push(["", "nothing relevant found"]);
  else parts.push(["grounded", "grounded " + Math.round((result.grounding || 0) * 100) + "%"]);
  if (result.low_confidence) parts.push(["low", "low confidence"]);
  parts.push(["", "route " + result.route + (result.plan && result.plan.by ? " (" + result.plan.by + ")" : "")]);
  if (result.answered_by) parts.push(["", "by " + result.answered_by]);
  parts.forEach(([cls, t], i) => {
    if (i) meta.append(document.createTextNode(" · "));
    const s = document.createElement("span");
    if (cls) s.className = cls;
    s.textContent = t;
    meta.append(s);
  });
  li.querySelector(".meta")?.remove();
  li.querySelectorAll(".caveat").forEach((c) => c.remove());
  li.append(meta);
  for (const text of result.caveats || []) {
    const c = document.createElement("p");
    c.className = "caveat";
    c.textContent = text;
    li.append(c);
  }
}

function openPassage(cit, result) {
  const src = (result.sources || []).find((s) => s.id === cit.id) || {};
  let where = cit.path || cit.url || cit.doc_id;
  if (src.start_line) where += ":" + src.start_line + (src.end_line && src.end_line !== src.start_line ? "-" + src.end_line : "");
  const what = src.symbol || src.heading;
  if (what) where += " — " + what;
  if ((cit.copies || []).length) where += "; the same text is in " + cit.copies.join(", ");
  $("passage-h").textContent = "Source [" + cit.n + "]: " + (cit.title || "");
  $("passage-where").textContent = where;
  $("passage-text").textContent = src.text || cit.quote || "(the server sent no text for this passage)";
  const p = $("passage");
  p.hidden = false;
  p.dataset.doc = cit.doc_id;
  p.focus();
}

// ---------- graph ----------

let graph = { nodes: new Map(), edges: [], subgraphs: new Set() }; // parsed from /v1/graph (Mermaid)

// parseMermaid reads the flowchart graphrag renders: node lines
// `id["label"]` or `id(["label"])`, edges `a --> b` and `a -.->|"label"| b`.
// A subgraph node (`subgraph id ["label"]` ... `end`, retrieve and its
// branches) is drawn as one box: its inner lines are skipped, and the
// branches a run takes are written under it as they happen.
function parseMermaid(text) {
  const nodes = new Map();
  const edges = [];
  const subgraphs = new Set();
  let depth = 0;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const sub = line.match(/^subgraph (\w+) \["(.*?)"\]$/);
    if (sub) {
      if (depth === 0) { nodes.set(sub[1], sub[2]); subgraphs.add(sub[1]); }
      depth++;
      continue;
    }
    if (line === "end" && depth > 0) { depth--; continue; }
    if (depth > 0) continue;
    let m = line.match(/^(\w+)\s*(?:-->|-\.->|==>)\s*(?:\|"(.*?)"\|\s*)?(\w+)$/);
    if (m) { edges.push({ from: m[1], to: m[3], label: m[2] || "", conditional: line.includes("-.->") }); continue; }
    m = line.match(/^(\w+)[[(]+"(.*?)"[\])]+$/);
    if (m) nodes.set(m[1], m[2]);
  }
  for (const e of edges) { for (const id of [e.from, e.to]) if (!nodes.has(id)) nodes.set(id, id); }
  return { nodes, edges, subgraphs };
}

// name maps a Mermaid id to the node name events use.
function nodeName(id, label) {
  if (id === "__start__") return "__start__";
  if (id === "__end__") return "__end__";
  return id.startsWith("n_") ? id.slice(2) : label;
}

function drawGraph() {
  const host = $("graph");
  host.replaceChildren();
  // Layers: breadth-first from the start; back-edges keep the layering.
  const depth = new Map([["__start__", 0]]);
  const queue = ["__start__"];
  while (queue.length) {
    const id = queue.shift();
    for (const e of graph.edges) {
      if (e.from === id && !depth.has(e.to) && e.to !== "__end__") { depth.set(e.to, depth.get(id) + 1); queue.push(e.to); }
    }
  }
  let max = 0;
  for (const d of depth.values()) max = Math.max(max, d);
  depth.set("__end__", max + 1);
  for (const id of graph.nodes.keys()) if (!depth.has(id)) depth.set(id, max + 1);
  const W = 300, rowH = 62, boxW = 120, boxH = 32, cx = 110;
  const pos = new Map();
  const perLayer = new Map();
  for (const [id, d] of depth) {
    const k = perLayer.get(d) || 0;
    perLayer.set(d, k + 1);
    pos.set(id, { x: cx + k * (boxW + 20), y: 20 + d * rowH });
  }
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 " + W + " " + (40 + (max + 1) * rowH + boxH));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "The RAG graph: " + [...graph.nodes.values()].join(", "));
  const defs = document.createElementNS(SVG, "defs");
  const marker = document.createElementNS(SVG, "marker");
  for (const [k, v] of Object.entries({ id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "8", markerHeight: "8", markerUnits: "userSpaceOnUse", orient: "auto-start-reverse" })) marker.setAttribute(k, v);
  const tip = document.createElementNS(SVG, "path");
  tip.setAttribute("d", "M0,0 L10,5 L0,10 z");
  marker.append(tip);
  defs.append(marker);
  svg.append(defs);
  let back = 0;
  for (const e of graph.edges) {
    const a = pos.get(e.from), b = pos.get(e.to);
    const g = document.createElementNS(SVG, "g");
    g.classList.add("edge");
    if (e.conditional) g.classList.add("conditional");
    g.dataset.from = nodeName(e.from, graph.nodes.get(e.from));
    g.dataset.to = nodeName(e.to, graph.nodes.get(e.to));
    const title = document.createElementNS(SVG, "title");
    title.textContent = g.dataset.from + " → " + g.dataset.to + (e.label ? ": " + e.label : "");
    g.append(title);
    const path = document.createElementNS(SVG, "path");
    let d, lx, ly;
    if (depth.get(e.to) === depth.get(e.from) + 1) {
      d = `M${a.x},${a.y + boxH / 2} L${b.x},${b.y - boxH / 2}`;
      lx = a.x + 6; ly = (a.y + b.y) / 2 + 4;
    } else {
      // Skips and back-edges go round the right-hand side, each a bit wider.
      back++;
      const side = a.x + boxW / 2 + 12 * back;
      d = `M${a.x + boxW / 2},${a.y} C${side + 20},${a.y} ${side + 20},${b.y} ${b.x + boxW / 2},${b.y}`;
      lx = side + 14; ly = (a.y + b.y) / 2;
    }
    path.setAttribute("d", d);
    path.setAttribute("marker-end", "url(#arrow)");
    const count = document.createElementNS(SVG, "text");
    count.setAttribute("x", String(lx));
    count.setAttribute("y", String(ly));
    count.classList.add("count");
    g.append(path, count);
    svg.append(g);
  }
  for (const [id, label] of graph.nodes) {
    const p = pos.get(id);
    const g = document.createElementNS(SVG, "g");
    g.classList.add("node");
    g.dataset.node = nodeName(id, label);
    g.dataset.visits = "0";
    const r = document.createElementNS(SVG, "rect");
    for (const [k, v] of Object.entries({ x: p.x - boxW / 2, y: p.y - boxH / 2, width: boxW, height: boxH, rx: 8 })) r.setAttribute(k, String(v));
    const t = document.createElementNS(SVG, "text");
    t.setAttribute("x", String(p.x));
    t.setAttribute("y", String(p.y + 4));
    t.setAttribute("text-anchor", "middle");
    t.textContent = label;
    g.append(r, t);
    if (graph.subgraphs.has(id)) {
      // The parallel branches that ran inside, e.g. "keyword ∥ vector".
      g.classList.add("subgraph");
      t.setAttribute("y", String(p.y - 1));
      const b = document.createElementNS(SVG, "text");
      b.setAttribute("x", String(p.x));
      b.setAttribute("y", String(p.y + 11));
      b.setAttribute("text-anchor", "middle");
      b.classList.add("branches");
      g.append(b);
    }
    svg.append(g);
  }
  host.append(svg);
  // Loops and their budgets, as the diagram labels them, with a count.
  const loops = $("loops");
  loops.replaceChildren();
  for (const e of graph.edges) {
    if (!e.conditional || !e.label) continue;
    const li = document.createElement("li");
    li.dataset.from = nodeName(e.from, graph.nodes.get(e.from));
    li.dataset.to = nodeName(e.to, graph.nodes.get(e.to));
    const what = document.createElement("span");
    what.textContent = li.dataset.from + " → " + (graph.nodes.get(e.to) || e.to) + ": " + e.label;
    const n = document.createElement("span");
    n.className = "taken-count";
    li.append(what, n);
    loops.append(li);
  }
}

async function loadGraph() {
  try {
    const resp = await api("/v1/graph");
    graph = parseMermaid(await resp.text());
    drawGraph();
  } catch (err) {
    $("graph").textContent = "Graph unavailable: " + err.message;
  }
}

// ---------- a run, as events ----------

class RunView {
  constructor() {
    this.last = "__start__";
    this.t0 = 0;
    for (const g of document.querySelectorAll("#graph .node")) { g.classList.remove("active", "visited"); g.dataset.visits = "0"; }
    for (const b of document.querySelectorAll("#graph .branches")) b.textContent = "";
    this.inner = new Map(); // subgraph → what ran in it, this visit
    for (const g of document.querySelectorAll("#graph .edge")) { g.classList.remove("taken"); g.dataset.count = "0"; g.querySelector(".count").textContent = ""; }
    for (const li of document.querySelectorAll("#loops li")) { li.classList.remove("taken"); li.querySelector(".taken-count").textContent = ""; }
    $("decisions").replaceChildren();
    $("timeline").replaceChildren();
    $("passage").hidden = true;
  }
  mark(from, to) {
    const g = document.querySelector(`#graph .edge[data-from="${CSS.escape(from)}"][data-to="${CSS.escape(to)}"]`);
    if (!g) return;
    const n = Number(g.dataset.count || "0") + 1;
    g.dataset.count = String(n);
    g.classList.add("taken");
    g.querySelector(".count").textContent = n + "×";
    const li = document.querySelector(`#loops li[data-from="${CSS.escape(from)}"][data-to="${CSS.escape(to)}"]`);
    if (li) { li.classList.add("taken"); li.querySelector(".taken-count").textContent = " — taken " + n + "×"; }
  }
  node(name, active) {
    const g = document.querySelector(`#graph .node[data-node="${CSS.escape(name)}"]`);
    if (!g) return;
    if (active) {
      for (const o of document.querySelectorAll("#graph .node.active")) o.classList.remove("active");
      g.classList.add("active", "visited");
      g.dataset.visits = String(Number(g.dataset.visits) + 1);
    }
  }
  // branch writes the parallel branches a subgraph runs in its box,
  // "keyword ∥ vector"; a new fan-out replaces the last one's.
  branch(ev) {
    if (!ev.branch) return;
    const top = ev.subgraph.split("/")[0];
    const names = ev.branch === 1 ? [] : (this.inner.get(top) || []);
    names.push(ev.node);
    this.inner.set(top, names);
    const b = document.querySelector(`#graph .node[data-node="${CSS.escape(top)}"] .branches`);
    if (b) b.textContent = names.join(" ∥ ");
  }
  event(ev) {
    if (ev.subgraph) {
      if (ev.type === "node_start") this.branch(ev);
      if (ev.type === "node_end") {
        const li = document.createElement("li");
        li.className = "inner";
        li.textContent = ev.subgraph + "/" + ev.node + (ev.branch ? " ∥" + ev.branch : "") + " " + ev.duration_ms.toFixed(1) + " ms";
        if (ev.error) li.classList.add("error");
        $("timeline").append(li);
      }
      return;
    }
    switch (ev.type) {
      case "node_start":
        this.mark(this.last, ev.node);
        this.last = ev.node;
        this.node(ev.node, true);
        $("status").textContent = "running " + ev.node + "…";
        break;
      case "node_end": {
        const li = document.createElement("li");
        li.textContent = ev.node + " " + ev.duration_ms.toFixed(1) + " ms";
        const bar = document.createElement("span");
        bar.className = "bar";
        bar.style.width = Math.min(120, 2 + ev.duration_ms) + "px";
        li.append(bar);
        if (ev.error) li.classList.add("error");
        $("timeline").append(li);
        break;
      }
      case "decision": {
        const li = document.createElement("li");
        li.textContent = ev.node + " → " + ev.to + (ev.reason ? ": " + ev.reason : "");
        $("decisions").append(li);
        break;
      }
      case "run_end":
        for (const o of document.querySelectorAll("#graph .node.active")) o.classList.remove("active");
        if (this.last !== "__start__") this.mark(this.last, "__end__");
        this.node("__end__", true);
        $("status").textContent = "done in " + ev.duration_ms.toFixed(0) + " ms";
        break;
    }
  }
}

let running = null; // the AbortController of the run in flight

// stream posts a query (or the answer to a paused one) and applies its
// events to the turn li as they come; it returns the final "result" or
// "interrupt" event.
async function stream(body, li, view) {
  const answer = li.querySelector(".answer");
  const resp = await api("/v1/query", {
    method: "POST", signal: running.signal,
    headers: { Accept: "application/x-ndjson" },
    body: JSON.stringify({ ...body, stream: "ndjson", options: { text: true } }),
  });
  const reader = resp.body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line) continue;
      const ev = JSON.parse(line);
      if (ev.type === "token") answer.textContent += ev.text;
      else if (ev.type === "custom" && ev.name === "draft_rejected") {
        // validate withdrew the draft: it is not the answer; say why.
        answer.textContent = "";
        $("status").textContent = "draft withdrawn: " + String(ev.data || "");
      }
      else if (ev.type === "result" || ev.type === "interrupt") return ev;
      else if (ev.type === "error") throw new Error(ev.error ? ev.error.message : "the run failed");
      else view.event(ev);
    }
  }
  throw new Error("the answer stream ended early");
}

// confirm shows a paused run's question (may this go to the web?) in the
// turn and resolves with the user's answer.
function confirm(li, interrupt) {
  return new Promise((resolve) => {
    const box = document.createElement("div");
    box.className = "confirm";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", "Confirm web search");
    const q = document.createElement("p");
    q.textContent = interrupt.kind === "confirm_web"
      ? `Send “${interrupt.query}” to the web search (${interrupt.provider})?`
      : interrupt.message;
    const yes = document.createElement("button");
    yes.type = "button";
    yes.className = "allow";
    yes.textContent = "Send it";
    const no = document.createElement("button");
    no.type = "button";
    no.className = "deny quiet";
    no.textContent = "No, use my files only";
    const answer = (allow) => { box.remove(); resolve(allow); };
    yes.addEventListener("click", () => answer(true));
    no.addEventListener("click", () => answer(false));
    box.append(q, yes, no);
    li.querySelector(".answer").after(box);
    $("status").textContent = "waiting for your answer…";
    yes.focus();
  });
}

async function ask(query) {
  const t = thread();
  if (!t.title) t.title = query.slice(0, 60);
  const history = t.turns.filter((x) => x.result).map((x) => ({ query: x.query, answer: x.result.answer }));
  const li = turnView(query, null, "");
  $("turns").append(li);
  const answer = li.querySelector(".answer");
  const view = new RunView();
  running = new AbortController();
  $("send").disabled = true;
  $("stop").hidden = false;
  $("status").textContent = "asking…";
  try {
    let ev = await stream({ query, history }, li, view);
    while (ev.type === "interrupt") {
      const allow = await confirm(li, ev.interrupt);
      $("status").textContent = allow ? "searching the web…" : "searching your files…";
      ev = await stream({ resume: { token: ev.interrupt.token, allow } }, li, view);
    }
    const result = ev.result;
    finishTurn(li, result);
    t.turns.push({ query, result });
    saveThreads();
    renderThreads();
  } catch (err) {
    li.querySelector(".confirm")?.remove();
    answer.classList.add("error");
    answer.textContent = err.name === "AbortError" ? "Stopped." : "Error: " + err.message;
    $("status").textContent = "";
  } finally {
    running = null;
    $("send").disabled = false;
    $("stop").hidden = true;
  }
}

// ---------- sources ----------

// loadSources lists what the store holds: each ingested folder with its
// counts, last ingest and the files skipped, by reason.
async function loadSources() {
  const host = $("sources");
  let rep;
  try {
    rep = await (await api("/v1/sources")).json();
  } catch (err) {
    host.textContent = "Sources unavailable: " + err.message;
    return;
  }
  const ul = document.createElement("ul");
  for (const r of rep.roots || []) {
    const li = document.createElement("li");
    li.className = "source";
    const path = document.createElement("strong");
    path.textContent = r.path + (r.exists ? "" : " (missing)");
    const counts = document.createElement("span");
    counts.className = "counts";
    const when = r.last_ingest ? new Date(r.last_ingest).toLocaleString() : "never";
    counts.textContent = `${r.files} files, ${r.chunks} chunks · last ingest ${when}`;
    li.append(path, counts);
    const skipped = Object.entries(r.skipped || {});
    if (skipped.length) {
      const sk = document.createElement("span");
      sk.className = "skipped";
      sk.textContent = "skipped: " + skipped.map(([why, n]) => `${n} ${why}`).join(", ");
      li.append(sk);
    }
    ul.append(li);
  }
  const total = document.createElement("p");
  total.textContent = `${rep.documents} documents, ${rep.chunks} chunks in all`;
  host.replaceChildren(ul, total);
}

// ---------- wiring ----------

document.addEventListener("DOMContentLoaded", () => {
  renderThreads();
  renderTurns();
  showLogin(false);
  loadGraph();
  loadSources();
  $("ask").addEventListener("submit", (e) => {
    e.preventDefault();
    const q = $("q").value.trim();
    if (!q || running) return;
    $("q").value = "";
    ask(q);
  });
  $("q").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); $("ask").requestSubmit(); }
  });
  $("stop").addEventListener("click", () => running && running.abort());
  $("new-thread").addEventListener("click", () => {
    threads.push({ title: "", turns: [] });
    current = threads.length - 1;
    saveThreads(); renderThreads(); renderTurns();
    $("q").focus();
  });
  $("login").addEventListener("submit", (e) => {
    e.preventDefault();
    store.setItem("graphrag.token", $("token").value);
    $("token").value = "";
    showLogin(false);
    loadGraph();
    loadSources();
  });
  $("logout").addEventListener("click", () => { store.removeItem("graphrag.token"); showLogin(true); });
  $("passage-close").addEventListener("click", () => { $("passage").hidden = true; });
  $("ingest").addEventListener("click", async () => {
    const st = $("ingest-status");
    st.textContent = "ingesting…";
    $("ingest").disabled = true;
    try {
      const resp = await api("/v1/ingest", { method: "POST", body: "{}" });
      const body = await resp.json();
      const s = body.summary || body;
      const n = (k) => s[k] ?? s[k.toLowerCase()] ?? 0;
      st.textContent = `${n("Added")} added, ${n("Updated")} updated, ${n("Unchanged")} unchanged, ${n("Deleted")} deleted`;
      loadSources();
    } catch (err) {
      st.textContent = "Ingest failed: " + err.message;
    } finally {
      $("ingest").disabled = false;
    }
  });
});
