// A Samurai map's hexes named like chess squares (K12): rows are letters
// from the top, columns numbers from the left, in the "odd-r" layout the
// terminal draws. The same names as games/samurai/squares.py, which the
// terminal and the Python narrator use; tests/web/test_narrate_js.py
// checks that both agree on every hex of the default map.

export function rowName(r) {
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  return r < 26 ? letters[r] : letters[Math.floor(r / 26) - 1] + letters[r % 26];
}

// Each hex's [row, column] from the top left, both from 0, by id.
export function positions(hexes) {
  const col = (h) => h.q + (h.r - (h.r & 1)) / 2;
  const minCol = Math.min(...hexes.map(col));
  const minRow = Math.min(...hexes.map((h) => h.r));
  return new Map(hexes.map((h) => [h.id, [h.r - minRow, col(h) - minCol]]));
}

// Each hex's square, by id: 62 -> "K12".
export function squares(hexes) {
  return new Map([...positions(hexes)].map(([id, [r, c]]) => [id, `${rowName(r)}${c + 1}`]));
}
