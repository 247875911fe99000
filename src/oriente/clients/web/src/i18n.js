// The page's words: one shared catalogue per language, served by the server
// from the same files the Python narrators read (clients/i18n/LANG.json), and
// each game's own words (its words/LANG.json, served at /i18n/GAME/LANG.json),
// merged into it: a game's keys are named after the game.
export const LANGS = ["en", "de", "fr"];
const cache = new Map(); // URL -> promise of its JSON (null: none)

function fetched(url, required) {
  if (!cache.has(url)) {
    cache.set(url, fetch(url).then((res) => {
      if (res.ok) return res.json();
      if (required) throw new Error(`${url}: ${res.status}`);
      return null;
    }, (err) => { cache.delete(url); if (required) throw err; return null; }));
  }
  return cache.get(url);
}

// The catalogue of `lang` with the words of `games` merged in (a game
// without words of its own in this language adds nothing).
export async function loadCatalogue(lang, games = []) {
  const [shared, ...words] = await Promise.all([fetched(`/i18n/${lang}.json`, true),
    ...games.map((g) => fetched(`/i18n/${encodeURIComponent(g)}/${lang}.json`, false))]);
  const merged = { ...shared, ui: { ...shared.ui }, narrate: { ...shared.narrate } };
  for (const w of words) {
    if (!w) continue;
    Object.assign(merged.ui, w.ui || {});
    Object.assign(merged.narrate, w.narrate || {});
  }
  return merged;
}

export function preferredLang() {
  const saved = localStorage.getItem("oriente.lang");
  if (LANGS.includes(saved)) return saved;
  const nav = (navigator.language || "en").slice(0, 2);
  return LANGS.includes(nav) ? nav : "en";
}

const FIELD = /\{(\w+)\}/g;

export function fill(template, args) {
  return template.replace(FIELD, (m, k) => (args && k in args ? String(args[k]) : m));
}

// Plurals, one rule for the page and the narrators (Python's too,
// clients/narrate.py plural_key): a text that depends on a count has two
// keys, KEY_one and KEY_other, and the catalogue's `plural_one` lists the
// counts that take the first (English and German: 1; French: 0 and 1).
export function pluralKey(cat, key, n) {
  return (cat.plural_one || [1]).includes(n) ? `${key}_one` : `${key}_other`;
}

// A translator for the page's own texts (the "ui" part), English as the
// fallback for a key a language lacks. A key with plural forms takes the
// one its count `n` asks for ("nach 1 verpassten Zug", "après 2 oublis").
export function translator(cat, en) {
  return (key, args) => {
    let template = cat.ui[key] ?? en.ui[key];
    if (template === undefined && args && typeof args.n === "number") {
      const form = pluralKey(cat, key, args.n);
      template = cat.ui[form] ?? en.ui[pluralKey(en, key, args.n)];
    }
    return fill(template ?? key, args);
  };
}
