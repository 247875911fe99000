// The end's ranking explained (docs/rules.md R9.4): where seats have the
// same total, which card decided between them. Each seat's tie-break list
// is its scored cards' values, highest first (the result's `tiebreaks`);
// two lists are compared card by card, the first higher card wins, a list
// that runs out first loses, identical lists share the rank. Pure.

// For each pair of neighbours in the ranking with the same total (the
// Ninja victor aside): {ahead, behind, total, at, a, b} — `at` the 0-based
// card where they differ and `a`/`b` the values there (b null: `behind`
// ran out of cards) — or {ahead, behind, total, shared: true}.
export function tieBreaks(result) {
  if (!result || !Array.isArray(result.scores) || !Array.isArray(result.tiebreaks)) return [];
  const { scores, tiebreaks, ranks } = result;
  const victor = result.ninja_victor ?? null;
  const order = scores.map((_, s) => s).filter((s) => s !== victor).sort((x, y) => ranks[x] - ranks[y] || x - y);
  const out = [];
  for (let i = 1; i < order.length; i += 1) {
    const ahead = order[i - 1], behind = order[i];
    if (scores[ahead] !== scores[behind]) continue;
    const la = tiebreaks[ahead] || [], lb = tiebreaks[behind] || [];
    let at = 0;
    while (at < la.length && at < lb.length && la[at] === lb[at]) at += 1;
    if (at === la.length && at === lb.length) out.push({ ahead, behind, total: scores[ahead], shared: true });
    else out.push({ ahead, behind, total: scores[ahead], at, a: la[at] ?? null, b: lb[at] ?? null });
  }
  return out;
}
