// Whether a claim of privilege could count now (docs/rules.md R4.3c): a
// claimant of a higher rank than the one to beat wins the round; one of
// equal rank only while it holds strictly fewer score cards than the
// announcer, judged when the claim becomes decisive. The page says so
// before the claim is chosen. Pure, and read from what this seat may know
// alone: its own inhabitant (its view), the rank to beat (the prompt's
// public `rank`), and the score piles, which everyone sees.

// null: the claim counts as things stand (or the page cannot tell);
// else {mine, theirs, announcer}: an equal rank, and not fewer score cards.
export function hopelessClaim(view, prompt, you, rankOf) {
  if (!view || !prompt || prompt.topic !== "privilege" || typeof prompt.rank !== "number") return null;
  const seats = view.seats || [];
  const me = seats[you];
  const announcer = view.announcer;
  if (!me || me.inhabitant === null || me.inhabitant === undefined || typeof announcer !== "number" || !seats[announcer]) return null;
  const rank = rankOf(me.inhabitant);
  if (rank !== prompt.rank) return null; // higher: it counts; lower: the rules offer no claim at all
  const mine = (me.pile || []).length, theirs = (seats[announcer].pile || []).length;
  return mine < theirs ? null : { mine, theirs, announcer };
}
