// The page's words: one catalogue per language, served by the server from
// the same files the Python narrator reads (clients/i18n/LANG.json).
export const LANGS = ["en", "de", "fr"];
const cache = {};

export async function loadCatalogue(lang) {
  if (!cache[lang]) {
    const res = await fetch(`/i18n/${lang}.json`);
    cache[lang] = await res.json();
  }
  return cache[lang];
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

// A translator for the page's own texts (the "ui" part), English as the
// fallback for a key a language lacks.
export function translator(cat, en) {
  return (key, args) => {
    const template = cat.ui[key] ?? en.ui[key] ?? key;
    return fill(template, args);
  };
}
