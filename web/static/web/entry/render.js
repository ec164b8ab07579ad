// The entry screen drawn from the state: heading, how the hand ended, the player tabs, the
// active player's melds and held cards, the card picker, typing, and the record button.
// Every control calls an action (context.actions); nothing here changes the draft itself.
import { ApiError } from "../api.js";
import { RANKS, SUITS, SUIT_SYMBOLS, cardFace, cardName, colour, shortFace } from "../cards.js";
import { h, number } from "../dom.js";
import { kindLabel, t } from "../i18n.js";
import { actions, handNumber, matchUrl, root, state } from "./context.js";
import {
  activePlayer, cardTotal, conflicts, copies, isWild, counts, generalViolations, meldBodyIndex, offers, overCopies,
  playerViolations, restOffered, sharedFrom, violationsAt,
} from "./draft.js";
import { minus, signed } from "./format.js";
import { review } from "./review.js";
import { typed } from "./rulings.js";

const BANDS = [RANKS.slice(0, 7), RANKS.slice(7)];


export function activeGroupName() {
  const group = state.draft.active.group;
  return group === "hand" ? t("in_hand") : t("meld_n", { n: group + 1 });
}

// A redraw replaces every button of the screen. One under a finger still pressed would lose
// its tap: the press and the release land on two different buttons, so no click follows. So
// a redraw asked for meanwhile (another phone's part arriving) waits until the finger is
// lifted; the tap's own redraw then draws it. A press held longer than a tap does not hold
// the screen back.
const LONGEST_TAP_MS = 5000;
let pressedAt = null;
let waiting = false;
root?.addEventListener("pointerdown", () => { pressedAt = Date.now(); }, true);
function lifted(event) {
  if (event.type === "blur" && event.target !== globalThis) return; // a button's, not the page's
  pressedAt = null;
  if (waiting) setTimeout(() => waiting && render()); // after the tap's click, if it made none
}
for (const name of ["pointerup", "pointercancel", "blur"]) globalThis.addEventListener?.(name, lifted, true);

export function render() {
  if (state.conflict || state.gone) return;
  if (pressedAt !== null && Date.now() - pressedAt < LONGEST_TAP_MS) {
    waiting = true;
    return;
  }
  waiting = false;
  state.focusKey = document.activeElement?.dataset?.key ?? state.focusKey;
  if (state.share?.done) {
    // recorded on another phone, with everything tapped here in it: nothing left to enter
    root.replaceChildren(heading());
    root.removeAttribute("aria-busy");
    return;
  }
  if (state.reviewing) {
    root.replaceChildren(heading(), review());
    root.removeAttribute("aria-busy");
    return;
  }
  const own = state.own !== null;
  const parts = [
    heading(),
    twoVersions(),
    own ? null : endingQuestion(),
    playerTabs(),
    playerPanel(),
    picker(),
    typing(),
    finish(),
  ];
  root.replaceChildren(...parts.filter(Boolean)); // a part with nothing to show is left out
  // until the hand's ending is answered the picker stays below it in the page, so that the
  // first question is not under the picker on a phone (entry.css)
  root.classList.toggle("ending-first", !own && !state.draft.ending);
  root.removeAttribute("aria-busy");
  if (state.focusKey) root.querySelector(`[data-key="${CSS.escape(state.focusKey)}"]`)?.focus({ preventScroll: true });
  // the entry opens at its title; later redraws keep the group being tapped in view
  if (drawn) root.querySelector(".group.active")?.scrollIntoView({ block: "nearest" });
  drawn = true;
}

let drawn = false;

export function heading() {
  const { match, draft } = state;
  // a new hand is entered as the number it was started as (hands waiting in the outbox count)
  const dealer = match.seats.find((s) => s.player === (handNumber ? draft.dealer : draft.dealer ?? match.next_dealer));
  const title = handNumber ? t("edit_hand", { n: handNumber }) : t("new_hand", { n: draft.number ?? match.next_hand });
  return h("div", { class: "entry-head" },
    h("h1", {}, title),
    h("p", { class: "muted" }, [match.table, dealer ? t("dealer", { name: dealer.name }) : null].filter(Boolean).join(" · ")),
    state.passed ? h("p", { class: "passed", id: "entry-passed" }, t("share_recorded", { n: state.passed })) : null,
    shareLine());
}

// Whether this entry is shared with the other phones at the table, and how that stands.
function shareLine() {
  const share = state.share;
  if (!share) return null;
  const text = {
    joining: t("share_sending"),
    sharing: t("share_on"),
    sending: t("share_sending"),
    offline: t(state.own === null ? "share_offline" : "share_offline_own"),
    failed: share.message,
    closed: share.message,
  }[share.status] ?? "";
  return h("div", { class: `share-status ${share.status}`, id: "share-status" },
    h("p", { role: "status" }, text),
    progress(),
    share.clashes?.length ? h("p", { class: "share-clash" }, t("share_clash", { parts: share.clashes.join(", ") })) : null,
    ...(share.status !== "closed" ? share.kept ?? [] : []).map((name) =>
      h("p", { class: "share-news share-kept" }, t("versions_kept_elsewhere", { name }))),
    ...(share.status !== "closed" ? share.keptYours ?? [] : []).map((name) =>
      h("p", { class: "share-news share-kept" }, t("versions_kept_yours", { name }))),
    share.renumbered && share.status !== "closed"
      ? h("p", { class: "share-news", id: "share-renumbered" }, t("share_renumbered", { n: share.renumbered })) : null,
    share.restarted && share.status !== "closed"
      ? h("p", { class: "share-news", id: "share-restarted" }, t("share_restarted", { n: state.draft.number })) : null,
    // once compared, the side-by-side screen below holds the choices
    share.unsent && !state.conflict ? h("div", { class: "button-row" },
      // comparing records the hand, which a player who keeps no score may not do
      state.own !== null ? null : h("button", { type: "button", class: "button primary", id: "share-compare", onclick: () => actions.record() }, t("share_compare")),
      h("button", { type: "button", class: "button", id: "share-drop", onclick: () => actions.drop() }, t("share_drop"))) : null,
    share.status === "closed" && share.message && !share.unsent
      ? h("p", {}, h("a", { href: matchUrl, class: share.done ? "button primary" : null }, t("back_to_match"))) : null);
}

// Who has entered their own cards on their own phone: "Ben ✓ 4 melds, 3 cards" for each
// player whose part someone else wrote on another phone (the scorekeeper taps the rest); a
// part written only under this phone's own login, on another of its devices, is no news.
function progress() {
  const { draft } = state;
  // once the hand is recorded elsewhere, who had entered what is no longer news
  if (state.own !== null || state.share?.status === "closed") return null;
  const done = draft.players.filter((player) =>
    sharedFrom(draft, player.id).some((by) => by !== me()) && cardTotal(player));
  if (!done.length) return null;
  return h("ul", { class: "share-progress", id: "share-progress" }, done.map((player) => {
    const melds = player.melds.filter((meld) => meld.length).length;
    return h("li", { dataset: { player: player.id } }, t("progress_done", {
      name: player.name, melds: t("melds_count", { count: melds }),
      cards: t("cards_count", { count: player.hand.length }),
    }));
  }));
}

// The login this page is signed in with (a part entered under it came from one of its own
// devices).
const me = () => document.querySelector('meta[name="user"]')?.content ?? null;

// A player's cards entered differently on two phones: both versions side by side, and the
// choice of one (entry/draft.js keeps the part unsent until then).
function twoVersions() {
  const [found] = conflicts(state.draft);
  if (!found) return null;
  const player = state.draft.players.find((p) => String(p.id) === found.key);
  const faces = (cards) => cards.flatMap((code) => [cardFace(code), " "]);
  const side = (title, data, cls) => h("div", { class: `stale-column ${cls}` },
    h("h3", {}, title),
    data.melds.length
      ? h("ul", { class: "stale-melds" }, data.melds.map((meld) => h("li", {}, faces(meld))))
      : h("p", { class: "muted" }, t("no_melds")),
    h("p", {}, h("span", { class: "muted" }, `${t("in_hand_label")} `), data.hand.length ? faces(data.hand) : t("nothing_held")));
  return h("section", { class: "stale two-versions", id: "two-versions", "aria-labelledby": "two-versions-title", dataset: { player: found.key } },
    h("h2", { id: "two-versions-title" }, t("versions_title", { name: player?.name ?? "" })),
    h("p", { class: "muted" }, t("versions_hint")),
    h("div", { class: "stale-columns" },
      side(t("versions_mine"), found.mine, "yours"),
      side(theirsTitle(found.by), found.theirs, "theirs")),
    h("div", { class: "stale-actions" },
      h("button", { type: "button", class: "button wide", id: "keep-mine", onclick: () => actions.choose(found.key, "mine") }, t("versions_keep_mine")),
      h("button", { type: "button", class: "button wide", id: "keep-theirs", onclick: () => actions.choose(found.key, "theirs") }, t("versions_keep_theirs"))));
}

// Whose the other version is: another login by name, this page's own login as another of its
// devices.
function theirsTitle(by) {
  if (!by) return t("versions_theirs");
  return by === me() ? t("versions_theirs_yours") : t("versions_theirs_by", { by });
}

export function renderShare() {
  const node = document.getElementById("share-status");
  const line = shareLine();
  if (node && line) node.replaceWith(line);
}

function endingQuestion() {
  const { draft } = state;
  // an unanswered question is not yet a problem: its findings wait for an answer or a record
  const problems = draft.ending || root.classList.contains("attempted") ? generalViolations(draft, state.preview.violations) : [];
  const option = (value, wentOut, label) => {
    const id = `ending-${wentOut ?? value}`;
    const checked = draft.ending === value && (value !== "went_out" || draft.wentOut === wentOut);
    return h("div", { class: "choice" },
      h("input", {
        type: "radio", name: "ending", id, value: wentOut ?? value, checked,
        dataset: { key: id },
        onchange: () => actions.setEnding(value, wentOut),
      }),
      h("label", { for: id }, label));
  };
  // the endings and flags are the game's own (GET rulesets/): Rummy's stock never runs out
  const endings = draft.limits.endings;
  return h("fieldset", { class: "ending", "aria-describedby": problems.length ? "ending-problems" : null },
    h("legend", {}, t("how_ended")),
    h("div", { class: "choices ending-choices" },
      endings.includes("went_out") ? draft.players.map((p) => option("went_out", p.id, t("went_out_label", { name: p.name }))) : null,
      endings.includes("stock_exhausted") ? option("stock_exhausted", null, t("stock_ran_out")) : null),
    draft.limits.flags.map((flag) => {
      const id = `flag-${flag.name}`;
      return h("div", { class: "choice flag" },
        h("input", { type: "checkbox", id, checked: Boolean(draft.flags?.[flag.name]), dataset: { key: id },
          onchange: (event) => actions.setFlag(flag.name, event.target.checked) }),
        h("label", { for: id }, flag.label));
    }),
    problemList(problems, "ending-problems"));
}

function problemList(problems, id) {
  if (!problems.length) return null;
  return h("ul", { class: "problems", id }, problems.map((p) => h("li", { dataset: { code: p.code } }, p.detail)));
}

const resultOf = (index) => state.preview.results[index] ?? null;

function playerTabs() {
  const { draft } = state;
  const move = (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const count = draft.players.length;
    const index = (draft.active.player + step + count) % count;
    state.focusKey = `tab-${index}`;
    actions.selectPlayer(index);
    root.querySelector(`[data-key="tab-${index}"]`)?.focus();
  };
  return h("div", { class: "player-tabs", role: "tablist", "aria-label": t("players"), onkeydown: move },
    draft.players.map((player, index) => {
      if (state.own !== null && index !== state.own) return null; // a player enters their own cards only
      const result = resultOf(index);
      const problems = playerViolations(draft, state.preview.violations, index).length;
      const selected = index === draft.active.player;
      return h("button", {
        type: "button", role: "tab", id: `tab-${index}`, "aria-selected": selected ? "true" : "false",
        tabindex: selected ? "0" : "-1",
        "aria-controls": "player-panel", class: `player-tab${problems ? " has-problem" : ""}`,
        dataset: { key: `tab-${index}`, player: player.id },
        onclick: () => actions.selectPlayer(index),
      },
      h("span", { class: "name" }, player.name),
      h("span", { class: "tab-net" }, result ? signed(result.net)
        : t("cards_count", { count: cardTotal(player) })),
      problems ? h("span", { class: "tab-problem" }, "!", h("span", { class: "visually-hidden" }, t("player_problem", { name: player.name }))) : null);
    }));
}

function playerPanel() {
  const { draft } = state;
  const index = draft.active.player;
  const player = draft.players[index];
  const result = resultOf(index);
  const ownProblems = violationsAt(draft, state.preview.violations, index, null);
  // who else entered this part: another login by name; this phone's own login, on another of
  // its devices, as such (a second phone or browser of the same person)
  const from = sharedFrom(draft, player.id);
  const others = from.filter((by) => by !== me());
  const sharedLine = !from.length ? null : !others.length ? t("shared_from_yours")
    : others.every(Boolean) ? t("shared_from", { by: others.join(", ") }) : t("shared_from_other");
  return h("section", { class: "player-panel", id: "player-panel", role: "tabpanel", "aria-labelledby": `tab-${index}` },
    sharedLine ? h("p", { class: "shared-from muted" }, sharedLine) : null,
    problemList(ownProblems, `player-problems-${index}`),
    h("ol", { class: "groups" },
      player.melds.map((meld, group) => groupRow(index, group, meld, result?.melds?.[meldBodyIndex(player, group)])),
      h("li", { class: "group-actions" },
        h("button", { type: "button", class: "button small", dataset: { key: "new-meld" }, onclick: () => actions.openMeld() },
          "+ ", t("new_meld"))),
      groupRow(index, "hand", player.hand, null)),
    scoreLine(result));
}

function groupRow(playerIndex, group, codes, ruling) {
  const { draft } = state;
  const active = draft.active.player === playerIndex && draft.active.group === group;
  const problems = violationsAt(draft, state.preview.violations, playerIndex, group);
  const name = group === "hand" ? t("in_hand") : t("meld_n", { n: group + 1 });
  const meldKey = codes.join(" ");
  const offered = group !== "hand" ? state.suggestions[meldKey] ?? [] : [];
  const info = ruling ? [ruling.kind_label ?? (ruling.kind ? kindLabel(ruling.kind) : null), ruling.valid ? `${number(ruling.points)}` : null].filter(Boolean).join(" · ") : "";
  const held = group === "hand" && resultOf(playerIndex) ? minus(resultOf(playerIndex).hand_penalty) : "";
  return h("li", {
    class: `group${active ? " active" : ""}${problems.length ? " invalid" : ""}${group === "hand" ? " hand" : ""}`,
    dataset: { group: String(group) },
  },
  h("div", { class: "group-main" },
    h("button", {
      type: "button", class: "group-target", "aria-pressed": active ? "true" : "false",
      dataset: { key: `group-${group}` },
      onclick: () => actions.target(group),
    }, h("span", { class: "group-name" }, name), h("span", { class: "group-info" }, info || held)),
    h("div", { class: "chips" },
      codes.length ? codes.map((code, index) => chip(playerIndex, group, code, index, ruling)) : h("span", { class: "muted empty" }, group === "hand" ? t("nothing_held") : "—")),
    group !== "hand" && (codes.length || activePlayer(draft).melds.length > 1) ? h("button", {
      type: "button", class: "icon-button", "aria-label": t("remove_meld", { n: group + 1 }),
      dataset: { key: `remove-meld-${group}` }, onclick: () => actions.removeMeld(playerIndex, group),
    }, "×") : null),
  offered.length ? h("div", { class: "suggestions" },
    offered.map((meld) => h("button", {
      type: "button", class: "suggestion", dataset: { key: `suggest-${group}-${meld.join(" ")}` },
      onclick: () => actions.setMeld(playerIndex, group, meld),
      "aria-label": t("did_you_mean", { meld: meld.filter((c) => c.includes("=")).map(cardName).join(", ") }),
    }, t("did_you_mean", { meld: meld.filter((c) => c.includes("=")).map(shortFace).join(" ") })))) : null,
  group === "hand" && playerIndex === draft.active.player && restOffered(draft) ? h("div", { class: "suggestions" },
    h("button", { type: "button", class: "suggestion rest", dataset: { key: "the-rest" }, onclick: () => actions.chooseRest() },
      t("the_rest"))) : null,
  problemList(problems, null));
}

function chip(playerIndex, group, code, index, ruling) {
  const two = group !== "hand" && isWild(state.draft, code);
  const label = two ? t("choose_two", { card: cardName(code) }) : t("remove_card", { card: cardName(code) });
  return h("button", {
    type: "button", class: `chip${two ? " two" : ""}`, "aria-label": label,
    dataset: { key: `chip-${group}-${index}-${code}`, card: code },
    onclick: () => (two ? actions.chooseTwo(playerIndex, group, index) : actions.removeCard(playerIndex, group, index)),
  },
  cardFace(code),
  two && !code.includes("=") && !ruling?.valid ? h("span", { class: "two-hint", "aria-hidden": "true" }, "?") : null);
}

function picker() {
  const { draft } = state;
  const seen = counts(draft);
  const suitRow = (band, suit) =>
    band.map((rank) => {
      const card = `${rank}${suit}`;
      const left = copies(draft) - (seen[card] ?? 0);
      const name = cardName(card);
      return h("button", {
        type: "button", class: `pick ${colour(suit)}`,
        disabled: left <= 0, dataset: { card, key: `pick-${card}` },
        "aria-label": left === 1 ? `${name}, ${t("left_of", { count: 1 })}` : name,
        onclick: () => actions.tapCard(card),
      },
      h("span", { class: "rank" }, rank), h("span", { class: "suit", "aria-hidden": "true" }, SUIT_SYMBOLS[suit]),
      left === 1 ? h("span", { class: "left", "aria-hidden": "true" }, "1") : null);
    });
  const inHand = draft.active.group === "hand";
  return h("section", { class: "picker", "aria-labelledby": "picker-target" },
    h("p", { class: "picker-target", id: "picker-target" },
      t("adding_to", { group: `${activeGroupName()} · ${activePlayer(draft).name}` })),
    h("div", { class: "picker-bar" },
      h("button", { type: "button", class: "bar-button", dataset: { key: "bar-new-meld" },
        onclick: () => actions.openMeld() }, "+ ", t("new_meld")),
      h("button", { type: "button", class: "bar-button", "aria-pressed": inHand ? "true" : "false", dataset: { key: "bar-hand" },
        onclick: () => actions.target("hand") }, t("in_hand")),
      state.own !== null ? null : h("button", { type: "button", class: "bar-button", dataset: { key: "bar-next" }, onclick: () => actions.nextPlayer() },
        t("next_player"), h("span", { "aria-hidden": "true" }, " ›"))),
    offerStrip(),
    BANDS.map((band, b) => h("div", { class: `pick-grid band-${b}` },
      SUITS.map((suit) => h("div", { class: "pick-row", role: "group", "aria-label": t(`suit_${suit}`) }, suitRow(band, suit))))));
}

// Whole melds offered from the first cards of the meld being entered (a set after its first
// card, a run after its two ends), one tap each; the suits' legend when there is none. The
// strip keeps its height, so the cards under the thumb never move.
const draftWild = () => state.draft.limits.wild;

function offerStrip() {
  const found = offers(state.draft);
  if (!found.length) {
    return h("div", { class: "offer-strip" },
      h("p", { class: "suit-legend", "aria-hidden": "true" },
        SUITS.map((s) => h("span", { class: colour(s) }, `${SUIT_SYMBOLS[s]} ${t(`suit_${s}`)}`))));
  }
  return h("div", { class: "offer-strip", role: "group", "aria-label": t("offers") },
    found.map((offer) => (offer.kind === "gap"
      // a wild two in the gap: the card it would stand for is shown after "2="
      ? h("button", {
        type: "button", class: "offer gap", dataset: { key: `gap-${offer.stands}`, gap: offer.stands },
        "aria-label": t("offer_gap", { card: cardName(offer.stands), cards: offer.cards.map(cardName).join(", ") }),
        onclick: () => actions.chooseGap(offer),
      }, offer.cards.map((code, i) => (i === offer.gap
        ? h("span", { class: "gap-card" }, `${draftWild()}=`, cardFace(code))
        : cardFace(code))))
      : h("button", {
        type: "button", class: `offer ${offer.kind}`, dataset: { key: `offer-${offer.cards.join("-")}`, offer: offer.cards.join(" ") },
        "aria-label": t("offer", { cards: offer.cards.map(cardName).join(", ") }),
        onclick: () => actions.takeOffer(offer.cards),
      }, offer.cards.map((code) => cardFace(code))))));
}

// A refusal for want of a connection goes once the connection is back.
globalThis.addEventListener?.("online", () => {
  if (!state.typed.offline) return;
  state.typed.offline = false;
  state.typed.error = "";
  const error = document.getElementById("typed-error");
  if (error) error.textContent = "";
  document.getElementById("typed")?.removeAttribute("aria-invalid");
});

// What is typed and what was wrong with it live in the state, so that a redraw (a preview's
// answer arriving) keeps both.
function typing() {
  const kept = state.typed;
  const input = h("input", {
    type: "text", id: "typed", autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
    "aria-describedby": "typed-hint typed-error", dataset: { key: "typed" }, value: kept.value,
    "aria-invalid": kept.error ? "true" : null,
    oninput: (event) => { kept.value = event.target.value; },
  });
  const error = h("p", { class: "field-error", id: "typed-error", "aria-live": "polite" }, kept.error);
  const refuse = (text) => {
    kept.error = text;
    document.getElementById("typed-error").textContent = text;
    document.getElementById("typed")?.setAttribute("aria-invalid", "true");
  };
  const form = h("form", { class: "typing field", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      kept.error = "";
      error.textContent = "";
      input.removeAttribute("aria-invalid");
      const where = { ...state.draft.active }; // the group they were typed for, whatever is tapped meanwhile
      try {
        const { cards } = await typed(state.draft, kept.value);
        const third = overCopies(state.draft, cards);
        if (third) {
          refuse(t("none_left", { card: shortFace(third) }));
          return;
        }
        kept.value = "";
        state.draft.active = where;
        actions.addCards(cards);
      } catch (failure) {
        // typed cards are read by the server; without it, the picker still works
        if (!(failure instanceof ApiError)) {
          refuse(t("type_offline"));
          kept.offline = true;
          return;
        }
        refuse(failure.errors.map((e) => e.detail).join(" "));
      }
    } },
  h("label", { for: "typed" }, t("type_cards")),
  h("p", { class: "hint", id: "typed-hint" }, t("type_hint")),
  h("div", { class: "typing-row" }, input, h("button", { type: "submit", class: "button small", dataset: { key: "typed-add" } }, t("add"))),
  error);
  return form;
}

function scoreLine(result) {
  if (!result) return h("p", { class: "score-line muted" }, "");
  const item = (label, value) => h("span", {}, h("span", { class: "label" }, label), " ", h("strong", {}, value));
  return h("p", { class: "score-line", "aria-live": "polite" },
    item(t("melded"), number(result.melded_points)),
    item(t("penalty"), minus(result.hand_penalty)),
    item(t("bonus"), number(result.bonus)),
    item(t("net"), signed(result.net)));
}

function statusText() {
  const { preview } = state;
  switch (preview.state) {
    case "checking": return t("checking");
    case "offline": return t("preview_offline");
    case "valid": return t("valid_hand");
    case "invalid": return t("problem_count", { count: preview.violations.length });
    default: return "";
  }
}

export function renderStatus() {
  const node = document.getElementById("preview-status");
  if (node) node.textContent = statusText();
}

function finish() {
  const editing = handNumber !== null;
  const { draft, preview, sending } = state;
  if (state.own !== null) {
    // a player who does not keep score: their cards reach the scorekeeper's phone, who records
    return h("div", { class: "finish" }, h("p", { class: "own-note", id: "own-note" }, t("own_note")));
  }
  return h("div", { class: "finish" },
    h("p", { id: "preview-status", class: `preview-status ${preview.state}`, role: "status" }, statusText()),
    editing ? h("div", { class: "field" },
      h("label", { for: "reason" }, t("reason")),
      h("input", { type: "text", id: "reason", maxlength: 500, value: draft.reason ?? "", dataset: { key: "reason" },
        oninput: (event) => actions.setReason(event.target.value) })) : null,
    h("button", {
      type: "button", class: "button primary wide", id: "record", disabled: sending, dataset: { key: "record" },
      onclick: () => (editing ? actions.saveCorrection() : actions.review()),
    }, sending ? t("recording") : editing ? t("save_correction") : t("record")),
    state.share && state.share.status !== "closed" ? h("button", {
      type: "button", class: "button danger wide", id: "start-again", dataset: { key: "start-again" },
      onclick: () => actions.confirmStartAgain(),
    }, t("start_again")) : null);
}

// Nothing to enter here: a viewer, or a finished match. Say so, with the way back.
export function closed(message, matchUrl) {
  root.removeAttribute("aria-busy");
  root.replaceChildren(h("div", { class: "notice", id: "entry-closed" },
    h("p", {}, message), h("p", {}, h("a", { href: matchUrl }, t("back_to_match")))));
}
