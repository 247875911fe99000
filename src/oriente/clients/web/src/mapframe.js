// What the games' maps share: a legible size and a zoom. A map is drawn at
// a fixed number of pixels per unit of its SVG (each game says how many:
// enough for a hex 40 px across, text 12 px high), times the person's zoom,
// kept per game in this browser; the frame scrolls what does not fit
// (a phone, a big map zoomed in) instead of shrinking it out of sight.
// Keyboard: `nearest` finds the next place to pick in an arrow's direction.
import { h } from "preact";
import htm from "htm";
import { useState } from "preact/hooks";
import { app } from "./state.js";

const html = htm.bind(h);
export const ZOOMS = [0.5, 0.65, 0.8, 1, 1.25, 1.5, 2];

// The zoom of `game`'s map and a setter that keeps it.
export function useZoom(game) {
  const key = `oriente.zoom.${game}`;
  const [zoom, set] = useState(() => {
    const saved = Number(localStorage.getItem(key));
    return ZOOMS.includes(saved) ? saved : 1;
  });
  const setZoom = (z) => { localStorage.setItem(key, String(z)); set(z); };
  return [zoom, setZoom];
}

// The zoom buttons and the scrolling frame around a map.
export function MapFrame({ zoom, setZoom, label, children }) {
  const t = app.t;
  const k = ZOOMS.indexOf(zoom);
  return html`<div class="map-frame">
    <div class="map-tools" role="group" aria-label=${label}>
      <button type="button" class="small zoom-out" title=${t("map.zoom_out")} aria-label=${t("map.zoom_out")}
        disabled=${k <= 0} onClick=${() => setZoom(ZOOMS[k - 1])}>−</button>
      <button type="button" class="small zoom-reset" title=${t("map.zoom_reset")} aria-label=${t("map.zoom_reset")}
        disabled=${zoom === 1} onClick=${() => setZoom(1)}>${Math.round(zoom * 100)} %</button>
      <button type="button" class="small zoom-in" title=${t("map.zoom_in")} aria-label=${t("map.zoom_in")}
        disabled=${k >= ZOOMS.length - 1} onClick=${() => setZoom(ZOOMS[k + 1])}>+</button>
    </div>
    <div class="map-scroll">${children}</div>
  </div>`;
}

const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

// The place among `places` ([id, x, y]) nearest to `from` in the direction
// of the arrow `key`, or null: what the arrow keys move to on a map.
export function nearest(places, from, key) {
  const dir = ARROWS[key];
  if (!dir) return null;
  const here = places.find((p) => p[0] === from);
  if (!here) return places.length ? places[0][0] : null;
  let best = null, bestScore = Infinity;
  for (const [id, x, y] of places) {
    if (id === from) continue;
    const dx = x - here[1], dy = y - here[2];
    const along = dx * dir[0] + dy * dir[1];
    if (along <= 0.01) continue;
    const across = Math.abs(dx * dir[1] - dy * dir[0]);
    const score = along + 2 * across;
    if (score < bestScore) { best = id; bestScore = score; }
  }
  return best;
}
