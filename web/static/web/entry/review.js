// The review before a new hand is recorded: every player's melds, held cards and net on one
// screen, one tap to record, one tap back to the player to fix.
import { cardFace } from "../cards.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { actions, state } from "./context.js";
import { minus, signed } from "./format.js";

export function review() {
  const { draft, preview } = state;
  const winner = draft.players.find((p) => p.id === draft.wentOut);
  const ending = draft.ending === "stock_exhausted" ? t("stock_ran_out") : t("went_out_label", { name: winner?.name ?? "?" });
  const faces = (cards) => cards.flatMap((code, i) => (i ? [" ", cardFace(code)] : [cardFace(code)]));
  return h("section", { class: "review", id: "review", "aria-labelledby": "review-title", tabindex: "-1" },
    h("h2", { id: "review-title" }, t("review_title")),
    h("p", { class: "muted" }, ending),
    h("ol", { class: "review-players" },
      draft.players.map((player, index) => {
        const result = preview.results[index];
        const melds = player.melds.filter((m) => m.length);
        return h("li", { class: "review-player", dataset: { player: player.id } },
          h("div", { class: "review-head" },
            h("h3", {}, player.name),
            h("strong", { class: "review-net" }, result ? signed(result.net) : ""),
            h("button", {
              type: "button", class: "button small review-fix", dataset: { key: `review-fix-${index}` },
              "aria-label": t("review_fix", { name: player.name }), onclick: () => actions.fix(index),
            }, t("review_fix_short"))),
          h("ul", { class: "review-melds", "aria-label": t("review_melds", { name: player.name }) },
            melds.length ? melds.map((meld) => h("li", {}, faces(meld))) : h("li", { class: "muted" }, t("no_melds"))),
          h("p", { class: "review-held" },
            h("span", { class: "muted" }, `${t("in_hand_label")} `),
            player.hand.length ? faces(player.hand) : t("nothing_held"),
            result && player.hand.length ? h("span", { class: "muted" }, ` (${minus(result.hand_penalty)})`) : null));
      })),
    h("div", { class: "review-actions" },
      h("button", { type: "button", class: "button primary wide", id: "review-record", dataset: { key: "review-record" },
        disabled: state.sending, onclick: () => actions.record() }, state.sending ? t("recording") : t("record")),
      h("button", { type: "button", class: "button wide", id: "review-back", dataset: { key: "review-back" },
        onclick: () => actions.fix(draft.active.player) }, t("review_back"))));
}
