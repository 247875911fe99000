// Samurai's prompts that the bot answers beyond `legal`: the secret choice of tiles is a
// combination too large to list, so it comes as `choose` ({command, count, tiles}, PROTOCOL.md 20).

/** `count` of the prompt's `choose.tiles`, drawn at random, as its `choose.command`. */
export function answers(p, rng) {
  if (!p.choose) return [];
  const pool = [...p.choose.tiles];
  const picked = [];
  while (picked.length < p.choose.count && pool.length) {
    picked.push(pool.splice(Math.floor(rng() * pool.length), 1)[0]);
  }
  return [{ type: p.choose.command, decision: p.id, tiles: picked.sort((a, b) => a - b) }];
}
