// Cards drawn from the card reference the server serves for the game
// (/data/oriente/reference.json, from its port): the
// page holds no card data of its own.
import { h } from "preact";
import htm from "htm";
import { app, dispatch } from "../../state.js";

const html = htm.bind(h);

// Oriente's card reference, as made below from the server's (app.refs.oriente).
export const cardRef = () => app.refs.oriente;

export function makeRef(data) {
  const kinds = new Map(data.kinds.map((k) => [k.kind, k]));
  const cards = data.cards;
  const ref = {
    data,
    kinds,
    kind: (c) => cards[c].kind,
    info: (c) => kinds.get(cards[c].kind),
    value: (c) => cards[c].value,
    rank: (c) => cards[c].rank,
    name(c, lang) {
      const k = kinds.get(cards[c].kind);
      const n = k.name[lang] ?? k.name.en;
      return k.kind === "treasure" ? `${n} ${cards[c].value}` : n;
    },
    title(c, lang) { const k = kinds.get(cards[c].kind); return k.title[lang] ?? k.title.en; },
    action(kind, lang) { const a = data.actions[kind]; return a ? a[lang] ?? a.en : kind; },
    // What an announced ability does (the card's text), or null (an attack).
    actionText(kind, lang) {
      for (const k of data.kinds) {
        for (const a of k.abilities) if (a.action === kind) return a.text[lang] ?? a.text.en;
      }
      return null;
    },
  };
  return ref;
}

export function cardLabel(c) {
  const ref = cardRef(), t = app.t, lang = app.lang;
  if (c === null || c === undefined) return t("card.facedown");
  const info = ref.info(c);
  const parts = [`${ref.name(c, lang)} (${ref.title(c, lang)})`];
  if (ref.rank(c) !== null) parts.push(t("card.rank", { rank: ref.rank(c) }));
  if (ref.value(c) !== null) parts.push(t("card.value", { value: ref.value(c) }));
  for (const a of info.abilities) parts.push(`${a.name[lang] ?? a.name.en}: ${a.text[lang] ?? a.text.en}`);
  return parts.join(" — ");
}

export function openReference(kind = null) {
  dispatch({ type: "dialog", dialog: { kind: "reference", game: "oriente", focus: kind } });
}

// One card. `card` null: face down. `mine`: a face-down card its owner sees.
export function Card({ card, size = "m", mine = false, note = null }) {
  if (card === null || card === undefined) {
    return html`<span class=${`card back ${size}`} role="img" aria-label=${app.t("card.facedown")} title=${app.t("card.facedown")}></span>`;
  }
  const ref = cardRef(), lang = app.lang;
  const kind = ref.kind(card);
  const rank = ref.rank(card);
  const value = ref.value(card);
  const corner = kind === "treasure" ? `◆${value}` : kind === "geisha" ? "✿" : String(rank);
  const label = cardLabel(card) + (mine ? ` — ${app.t("card.mine")}` : "");
  return html`<button type="button" class=${`card face k-${kind} ${size}${mine ? " mine" : ""}`} title=${label} aria-label=${label}
      onClick=${() => openReference(kind)}>
    <span class="corner">${corner}</span>
    ${!(kind === "treasure" && size === "s") && html`<span class="nm">${kind === "treasure" ? ref.name(card, lang).replace(/ \d+$/, "") : ref.name(card, lang)}</span>`}
    ${size !== "s" && html`<span class="sub">${ref.title(card, lang)}</span>`}
    ${note && html`<span class="note">${note}</span>`}
  </button>`;
}

export function CardReference({ focus }) {
  const ref = cardRef(), t = app.t, lang = app.lang;
  return html`<div class="reference">
    <p class="muted">${t("ref.intro")}</p>
    <ul class="kinds">
      ${ref.data.kinds.map((k) => html`<li key=${k.kind} class=${focus === k.kind ? "focus" : ""} id=${`ref-${k.kind}`}>
        <${Card} card=${k.cards[k.kind === "treasure" ? 4 : 0]} size="m" />
        <div>
          <h3>${k.name[lang] ?? k.name.en} <span class="muted">${k.title[lang] ?? k.title.en}</span></h3>
          <p class="muted">${k.rank !== null ? t("ref.rank", { rank: k.rank }) + " · " : ""}${t("ref.count", { n: k.count })}</p>
          ${k.abilities.map((a) => html`<p><b>${a.name[lang] ?? a.name.en}</b> (${a.rule}): ${a.text[lang] ?? a.text.en}</p>`)}
        </div>
      </li>`)}
    </ul>
  </div>`;
}
