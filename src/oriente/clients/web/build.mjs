// Builds the web client into dist/ (committed: installing the Python
// package must be enough to serve the page). Deterministic: the same
// sources and esbuild version give the same bytes, which
// tests/web/test_build.py checks with `node build.mjs --check`.
//
// What is built: the page (src/main.js -> app.js, src/app.css -> app.css)
// and, apart from it, each game's own screen: every src/games/NAME/index.js
// -> games/NAME.js (and its screen.css, if it has one -> games/NAME.css),
// which the page loads once the server says it plays NAME (games.js). So a
// game's folder is all there is of it: nothing else lists it, and the page
// itself names no game. What the page and the games share (preact, the
// state, the common parts) is split into chunks/, loaded once.
import { build } from "esbuild";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const check = process.argv.includes("--check");
const out = check ? mkdtempSync(join(tmpdir(), "oriente-web-")) : join(here, "dist");
if (!check) rmSync(out, { recursive: true, force: true }); // no file of a game or chunk that is gone stays behind
mkdirSync(out, { recursive: true });

const gamesDir = join(here, "src", "games");
const games = readdirSync(gamesDir).filter((n) => existsSync(join(gamesDir, n, "index.js"))).sort();

const common = { bundle: true, minify: true, legalComments: "none", logLevel: "warning", charset: "utf8" };
await build({
  ...common,
  entryPoints: [{ in: join(here, "src/main.js"), out: "app" },
    ...games.map((n) => ({ in: join(gamesDir, n, "index.js"), out: `games/${n}` }))],
  outdir: out, format: "esm", target: "es2020", splitting: true, chunkNames: "chunks/[hash]",
});
await build({
  ...common,
  entryPoints: [{ in: join(here, "src/app.css"), out: "app" },
    ...games.filter((n) => existsSync(join(gamesDir, n, "screen.css")))
      .map((n) => ({ in: join(gamesDir, n, "screen.css"), out: `games/${n}` }))],
  outdir: out,
});
for (const name of ["index.html", "favicon.svg"]) copyFileSync(join(here, "src", name), join(out, name));

// Every file under `dir`, by its path relative to it.
function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path).map((f) => join(name, f)) : [name];
  });
}

if (check) {
  const dist = join(here, "dist");
  const stale = [];
  const names = new Set([...files(out), ...files(dist)]);
  for (const name of [...names].sort()) {
    let a = null, b = null;
    try { a = readFileSync(join(out, name)); } catch (e) { /* missing */ }
    try { b = readFileSync(join(dist, name)); } catch (e) { /* missing */ }
    if (!a || !b || !a.equals(b)) stale.push(name);
  }
  rmSync(out, { recursive: true, force: true });
  if (stale.length) {
    console.error(`dist/ is stale (${stale.join(", ")}): run npm run build in src/oriente/clients/web and commit dist/`);
    process.exit(1);
  }
  console.log("dist/ is fresh");
}
