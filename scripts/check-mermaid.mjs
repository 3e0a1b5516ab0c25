#!/usr/bin/env node
// check-mermaid.mjs parses Mermaid diagrams with the real Mermaid parser
// (npm's mermaid package, run in Node with a jsdom window) and fails if any
// does not parse.
//
// Dependencies are installed outside the repository, e.g.:
//
//   mkdir -p /tmp/mmd && cd /tmp/mmd && npm init -y && npm i mermaid jsdom
//
// Usage (NODE_PATH is not used by ES modules, so point MERMAID_DEPS at the
// directory holding node_modules; it defaults to /tmp/mmd):
//
//   MERMAID_DEPS=/tmp/mmd node scripts/check-mermaid.mjs graph/testdata/golden/*.mmd
//   graphrag viz | node scripts/check-mermaid.mjs -      # "-" reads stdin
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const depsDir = resolve(process.env.MERMAID_DEPS || "/tmp/mmd");
const require = createRequire(join(depsDir, "package.json"));

let JSDOM;
try {
  ({ JSDOM } = await import(pathToFileURL(require.resolve("jsdom")).href));
} catch (e) {
  console.error(`cannot load jsdom from ${depsDir}: run "npm i mermaid jsdom" there or set MERMAID_DEPS (${e.message})`);
  process.exit(2);
}
const dom = new JSDOM("<!DOCTYPE html><html><body></body></html>", { pretendToBeVisual: true });
for (const k of ["window", "document", "navigator", "Element", "HTMLElement", "SVGElement", "DOMParser", "MutationObserver"]) {
  if (!(k in globalThis) || k === "window" || k === "document") {
    try {
      globalThis[k] = k === "window" ? dom.window : dom.window[k];
    } catch {
      // navigator is a getter-only global in recent Node versions; keep Node's
    }
  }
}

const mermaid = (await import(pathToFileURL(require.resolve("mermaid")).href)).default;
mermaid.initialize({ startOnLoad: false });

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node scripts/check-mermaid.mjs FILE.mmd... (or - for stdin)");
  process.exit(2);
}
let failed = 0;
for (const f of files) {
  const text = readFileSync(f === "-" ? 0 : f, "utf8");
  try {
    const res = await mermaid.parse(text);
    console.log(`ok   ${f}${res && res.diagramType ? ` (${res.diagramType})` : ""}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${f}: ${String(e.message || e).split("\n").slice(0, 6).join("\n     ")}`);
  }
}
if (failed > 0) {
  console.error(`${failed} of ${files.length} diagram(s) failed to parse`);
  process.exit(1);
}
