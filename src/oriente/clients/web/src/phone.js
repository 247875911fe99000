// A table on a phone (a narrow screen, app.css's 760 px): the decision
// panel, with its timer, stays at the top of the screen while the page
// scrolls (app.css), and this bar at the bottom takes the person to the
// story and back to the table in one tap. Wider screens never show it:
// there the story sits beside the table.
import { h } from "preact";
import htm from "htm";
import { app } from "./state.js";

const html = htm.bind(h);

function toStory() {
  const story = document.querySelector(".feed");
  if (story) {
    story.scrollIntoView({ block: "end" });
    story.scrollTop = story.scrollHeight;
  }
}

function toTable() {
  window.scrollTo(0, 0);
}

export function PhoneBar() {
  const t = app.t;
  return html`<nav class="phone-bar" aria-label=${t("phone.bar")}>
    <button type="button" id="phone-table" onClick=${toTable}>${t("phone.table")}</button>
    <button type="button" id="phone-story" onClick=${toStory}>${t("phone.story")}</button>
  </nav>`;
}
