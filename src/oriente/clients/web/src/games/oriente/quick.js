// The common deals of a fight, pre-filled from the view, so that a person
// proposes one in a few seconds during a negotiation window (R6.2, R8.6):
//   buy_support   a fighter's card for an asked seat's support of its side
//   sell_support  an asked seat's support of a fighter, for that fighter's card
//   peace         my card for a seat's promise not to attack me this season
// Each is one ProposeDeal per chosen seat, with its purpose as a reason of
// R8.8 (`why`), which every client words in its reader's language. Pure:
// no I/O and no page state, so `node --test` checks it (test/quick.test.js).
// `words(key, args)` gives the texts a deal must carry (a transfer's
// consideration, a promise's words, R8.3), in the proposer's language.

// The card a quick deal offers by default: the cheapest that is worth
// something (a Ninja counts towards a Ninja victory, R9.1: never by
// default). `value(card)` is the card's score value (the card reference).
export function cheapestCard(pile, value) {
  const worth = (pile || []).filter((c) => (value(c) || 0) > 0);
  if (!worth.length) return null;
  return worth.reduce((a, b) => (value(b) < value(a) ? b : a));
}

function fightOf(view) {
  const f = view && view.fight;
  return f && Number.isInteger(f.attacker) && Number.isInteger(f.defender) ? f : null;
}

// The seats of the coming support round that have not declared in public yet.
function supporters(prompt, view) {
  if (!prompt || !["negotiation", "support"].includes(prompt.topic)) return [];
  const declared = new Set((prompt.published || []).map(([s]) => s));
  return (prompt.asked || []).filter((s) => !declared.has(s) && view.seats[s] && view.seats[s].disc);
}

// What this seat may propose now, quickly: a list of
//   {kind, side?, fighter?, giver, cards: [ids the card may be], card: default,
//    seats: [who it may go to], chosen: [pre-chosen seats]}
export function quickOptions(view, prompt, you, value) {
  if (!view || !Number.isInteger(you) || !view.seats || !view.seats[you]) return [];
  if (prompt && prompt.deal && prompt.deal.propose === false) return [];
  const out = [];
  const fight = fightOf(view);
  const mine = view.seats[you].pile || [];
  if (fight) {
    const asked = supporters(prompt, view).filter((s) => s !== you);
    const side = fight.attacker === you ? "attacker" : fight.defender === you ? "defender" : null;
    if (side && asked.length && cheapestCard(mine, value) !== null) {
      out.push({ kind: "buy_support", side, fighter: you, giver: you, cards: mine, card: cheapestCard(mine, value),
        seats: asked, chosen: [asked[0]] });
    }
    if (!side && supporters(prompt, view).includes(you)) {
      for (const s of ["attacker", "defender"]) {
        const fighter = fight[s];
        const theirs = view.seats[fighter].pile || [];
        if (cheapestCard(theirs, value) === null) continue;
        out.push({ kind: "sell_support", side: s, fighter, giver: fighter, cards: theirs, card: cheapestCard(theirs, value),
          seats: [fighter], chosen: [fighter] });
      }
    }
  }
  const attackers = view.seats.filter((x) => x.seat !== you && x.disc).map((x) => x.seat);
  if (attackers.length && cheapestCard(mine, value) !== null) {
    const first = fight && fight.attacker !== you && attackers.includes(fight.attacker) ? fight.attacker : attackers[0];
    out.push({ kind: "peace", giver: you, cards: mine, card: cheapestCard(mine, value), seats: attackers, chosen: [first] });
  }
  return out;
}

function promise(fields) {
  return { type: "Promise", attacker: null, defender: null, side: null, cards: [], by_season: null, seat: null, ...fields };
}

// The ProposeDeal commands of one quick deal: one per chosen seat (a card
// goes to one seat, R8.3; offered to several, the first to accept has it
// and the other offers become void, R8.6). `name(s)` names a seat.
export function quickCommands(option, card, seats, view, you, words, name) {
  const fight = fightOf(view);
  return seats.map((to) => {
    if (option.kind === "buy_support") {
      const args = { side: words(`side.${option.side}`), name: name(you) };
      return {
        type: "ProposeDeal",
        transfers: [{ type: "Transfer", card, giver: you, receiver: to, consideration: words("quick.for_support", args) }],
        promises: [promise({ promiser: to, promisee: you, kind: "support", attacker: fight.attacker, defender: fight.defender,
          side: option.side, text: words("quick.promise_support", args) })],
        note: "",
        why: { code: "buy_support", attacker: fight.attacker, defender: fight.defender, side: option.side },
      };
    }
    if (option.kind === "sell_support") {
      const args = { side: words(`side.${option.side}`), name: name(option.fighter) };
      return {
        type: "ProposeDeal",
        transfers: [{ type: "Transfer", card, giver: option.fighter, receiver: you, consideration: words("quick.for_support", args) }],
        promises: [promise({ promiser: you, promisee: option.fighter, kind: "support", attacker: fight.attacker,
          defender: fight.defender, side: option.side, text: words("quick.promise_support", args) })],
        note: "",
        why: { code: "sell_support", attacker: fight.attacker, defender: fight.defender, side: option.side },
      };
    }
    const args = { name: name(you) };
    return {
      type: "ProposeDeal",
      transfers: [{ type: "Transfer", card, giver: you, receiver: to, consideration: words("quick.for_peace", args) }],
      promises: [promise({ promiser: to, promisee: you, kind: "no_attack", seat: you, text: words("quick.promise_peace", args) })],
      note: "",
      why: { code: "peace", seat: to },
    };
  });
}

// A counter-offer pre-filled from an offer: the same cards and promises,
// naming the offer it answers (R8.8), for the builder to change.
export function counterDraft(deal) {
  return {
    transfers: (deal.transfers || []).map((x) => ({ giver: x.giver, card: x.card, receiver: x.receiver, consideration: x.consideration || "" })),
    promises: (deal.promises || []).map((p) => ({ ...promise({}), ...p, cards: [...(p.cards || [])], kind: p.kind || "free" })),
    counterTo: deal.deal,
  };
}

// Every deal this seat is a party to, from the table's events, with how it
// ended and why (R8.6, R8.8): the open ones and those closed this season.
// {deal, proposer, parties, accepted: [...], status: open|executed|declined|withdrawn|void|lapsed,
//  by: seat or null, why: reason or null, season}
export function dealsOf(events, you) {
  const deals = new Map();
  let season = 0;
  for (const e of events || []) {
    if (e.type === "SeasonBegan") season = e.season;
    else if (e.type === "DealProposed") {
      deals.set(e.deal, { deal: e.deal, proposer: e.proposer, parties: e.parties || [], accepted: [e.proposer],
        status: "open", by: null, why: null, counterTo: e.counter_to ?? null, season });
    } else if (deals.has(e.deal)) {
      const d = deals.get(e.deal);
      if (e.type === "DealAccepted" && !d.accepted.includes(e.seat)) d.accepted = [...d.accepted, e.seat];
      if (e.type === "DealExecuted") d.status = "executed";
      if (e.type === "DealClosed") Object.assign(d, { status: e.reason, by: e.seat ?? null, why: e.why ?? null });
    }
  }
  return [...deals.values()].filter((d) => d.parties.includes(you) && (d.status === "open" || d.season === season));
}
