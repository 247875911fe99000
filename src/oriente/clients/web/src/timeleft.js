// A time left as a person reads it: "0:42" and "12:05" within the hour,
// "23 h 59 min" within a day, "3 d 4 h" beyond. A turn-based table's
// decision lasts hours and its bank days, and "5759:57" says nothing.
// `t` is the page's translator (the words for hours and days).
export function timeLeft(ms, t) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (s < 86400) return t("time.hours_minutes", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return t("time.days_hours", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
}
