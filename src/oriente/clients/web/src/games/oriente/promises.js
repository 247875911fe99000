// What this seat promised that the decision before it may keep or break
// (docs/rules.md R8.6): its open support promise for the fight under way,
// and the seats it promised not to attack this season. Read from the
// public ledger of the seat's own view, so the page can say, before the
// choice, which answer keeps the word given and which breaks it.

// The open ledger entries of `you`, of `kind`, made for this season.
function open(view, you, kind) {
  return (view.ledger || []).filter((e) => e.status === "open" && e.promiser === you && e.kind === kind
    && (e.season === undefined || e.season === view.season));
}

// {side, promisee, deal}: the side `you` promised to support in the fight
// under way (the first such promise), or null.
export function promisedSupport(view, you) {
  const fight = view && view.fight;
  if (!fight) return null;
  const e = open(view, you, "support").find((x) => x.attacker === fight.attacker && x.defender === fight.defender);
  return e ? { side: e.side, promisee: e.promisee, deal: e.deal ?? null } : null;
}

// The seats `you` promised not to attack this season, with whom it promised.
export function promisedPeace(view, you) {
  const out = new Map();
  if (!view) return out;
  for (const e of open(view, you, "no_attack")) if (typeof e.seat === "number") out.set(e.seat, e.promisee);
  return out;
}

// Whether answering `cmd` breaks one of these promises: another answer
// than the promised side in a support round, or an attack (announced or
// claimed) on a seat promised peace.
export function breaksPromise(cmd, support, peace) {
  if (support && (cmd.type === "Support" || cmd.type === "Pass")) {
    return !(cmd.type === "Support" && cmd.side === support.side);
  }
  const action = cmd.action;
  return !!(action && action.kind === "attack" && peace.has(action.target));
}
