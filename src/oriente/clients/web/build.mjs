// Builds the web client into dist/ (committed: installing the Python
// package must be enough to serve the page). Deterministic: the same
// sources and esbuild version give the same bytes, which
// tests/web/test_build.py checks with `node build.mjs --check`.
import { build } from "esbuild";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const check = process.argv.includes("--check");
const out = check ? mkdtempSync(join(tmpdir(), "oriente-web-")) : join(here, "dist");
mkdirSync(out, { recursive: true });

// The module "page-games": every src/games/NAME/index.js, in the order of
// their names. A game's page screen is its folder: nothing else lists it.
const gamesDir = join(here, "src", "games");
const pageGames = {
  name: "page-games",
  setup(b) {
    b.onResolve({ filter: /^page-games$/ }, () => ({ path: "page-games", namespace: "page-games" }));
    b.onLoad({ filter: /.*/, namespace: "page-games" }, () => {
      const names = readdirSync(gamesDir).filter((n) => existsSync(join(gamesDir, n, "index.js"))).sort();
      const lines = names.map((n, i) => `import g${i} from ${JSON.stringify(`./${n}/index.js`)};`);
      lines.push(`export default [${names.map((_, i) => `g${i}`).join(", ")}];`);
      return { contents: lines.join("\n"), resolveDir: gamesDir, loader: "js" };
    });
  },
};

const common = { bundle: true, minify: true, legalComments: "none", logLevel: "warning", charset: "utf8" };
await build({ ...common, entryPoints: [join(here, "src/main.js")], outfile: join(out, "app.js"), format: "esm", target: "es2020",
  plugins: [pageGames] });
await build({ ...common, entryPoints: [join(here, "src/app.css")], outfile: join(out, "app.css") });
for (const name of ["index.html", "favicon.svg"]) copyFileSync(join(here, "src", name), join(out, name));

if (check) {
  const dist = join(here, "dist");
  const stale = [];
  const names = new Set([...readdirSync(out), ...readdirSync(dist)]);
  for (const name of names) {
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
