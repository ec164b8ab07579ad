// A hand number another phone has already recorded, with a different hand (409
// hand_already_recorded): the recorded hand and this entry side by side, every difference the
// API names marked, and three ways on — keep the recorded one, correct it with this entry
// (PUT with If-Match), or edit this entry. Used by the entry screen and the match page's outbox.
import { request } from "./api.js";
import { cardFace } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const key = (cards) => [...cards].sort().join(" ");

// The recorded hand's rows and an entry's rows in one shape: {player, melds: [[codes]], hand: [codes]}.
const recordedRows = (hand) =>
  hand.results.map((r) => ({ player: r.player, melds: r.melds.map((m) => m.cards), hand: r.held.map((c) => c.card) }));

// Items of `list` that `only` names (a multiset: each named item marks one), as [item, marked].
function markedItems(list, only, keyOf) {
  const left = {};
  for (const item of only ?? []) left[keyOf(item)] = (left[keyOf(item)] ?? 0) + 1;
  return list.map((item) => {
    const k = keyOf(item);
    const marked = (left[k] ?? 0) > 0;
    if (marked) left[k] -= 1;
    return [item, marked];
  });
}

const faces = (cards) => cards.flatMap((c) => [cardFace(c), " "]);

function column({ title, rows, ending, wentOut, side, differences, names, cls }) {
  const endingText = ending === "stock_exhausted"
    ? t("stock_ran_out") : t("went_out_label", { name: names[wentOut] ?? "?" });
  const endingDiffers = Boolean(differences.ending) || differences.players.some((d) => d.went_out);
  return h("div", { class: `stale-column ${cls}` },
    h("h3", {}, title),
    h("p", { class: "muted" }, endingDiffers ? h("mark", { class: "changed" }, endingText) : endingText),
    Object.keys(names).map((id) => {
      const player = Number(id);
      const row = rows.find((r) => r.player === player) ?? { melds: [], hand: [] };
      const found = differences.players.find((d) => d.player === player) ?? {};
      const melds = markedItems(row.melds, found[`melds_only_${side}`], key);
      const held = markedItems(row.hand, found[`held_only_${side}`], (c) => c);
      return h("div", { class: "stale-player", dataset: { player } },
        h("h4", {}, names[id]),
        melds.length
          ? h("ul", { class: "stale-melds" }, melds.map(([meld, marked]) => h("li", {},
            marked ? h("mark", { class: "changed" }, faces(meld)) : faces(meld))))
          : h("p", { class: "muted" }, t("no_melds")),
        h("p", {}, h("span", { class: "muted" }, `${t("in_hand_label")} `),
          held.length ? held.flatMap(([c, marked]) => [marked ? h("mark", { class: "changed" }, cardFace(c)) : cardFace(c), " "])
            : t("nothing_held")));
    }));
}

// Correct hand `number` of `match` with this entry, If-Match naming the recorded version.
export async function correctWith(match, number, recorded, mine) {
  const { number: _, ...hand } = mine;
  return request(`matches/${match}/hands/${number}/`, {
    method: "PUT", body: { ...hand, reason: t("taken_reason") }, headers: { "If-Match": `"${recorded.version}"` },
  });
}

// The panel. `conflict` is the 409's body ({recorded, differences}); `mine` the body sent;
// `names` the seated players' names by id; `onKeep`, `onCorrect`, `onEdit` the three choices.
export function takenPanel({ conflict, mine, names, onKeep, onCorrect, onEdit }) {
  const { recorded, differences } = conflict;
  const panel = h("section", { class: "stale taken", id: "taken", "aria-labelledby": "taken-title", tabindex: "-1", dataset: { number: recorded.number } },
    h("h2", { id: "taken-title" }, t("taken_title", { n: recorded.number })),
    h("p", { class: "muted" }, t("taken_hint", { by: recorded.recorded_by })),
    h("div", { class: "stale-columns" },
      column({ title: t("taken_recorded", { by: recorded.recorded_by }), rows: recordedRows(recorded), ending: recorded.ending,
        wentOut: recorded.went_out, side: "recorded", differences, names, cls: "theirs" }),
      column({ title: t("taken_yours"), rows: mine.results, ending: mine.ending, wentOut: mine.went_out,
        side: "submitted", differences, names, cls: "yours" })),
    h("div", { class: "stale-actions" },
      h("button", { type: "button", class: "button primary wide", id: "taken-keep", onclick: onKeep }, t("taken_keep")),
      h("button", { type: "button", class: "button wide", id: "taken-correct", onclick: onCorrect }, t("taken_correct")),
      h("button", { type: "button", class: "button wide", id: "taken-edit", onclick: onEdit }, t("taken_edit"))));
  return panel;
}
