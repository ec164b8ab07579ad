// The draft of a hand being entered: what has been tapped so far, as plain data that survives
// a reload (JSON in localStorage). Everything here is free of the page: no DOM, no storage, no
// network. Each function reads or changes only the draft it is given, so the screen, the
// dialogs and the record all work through these and nothing else edits a draft by hand.
import { physical } from "../cards.js";

// What the game allows, from its description (GET rulesets/{name}/): how many copies of a card
// the deal holds (its packs), the longest meld (null: no limit), its endings and its flags.
// Kept on the draft (`draft.limits`), so that every function below reads the game's own.
export function limitsOf(rules) {
  return {
    ruleset: rules.name,
    copies: rules.packs,
    maxMeld: rules.meld_sizes?.max ?? null,
    wild: rules.wild_rank ?? null,
    endings: [...rules.endings],
    flags: rules.flags.map((flag) => ({ name: flag.name, label: flag.label, default: flag.default })),
  };
}

// Whether a card is of the game's wild rank (Arlington's twos; Rummy has none).
export const isWild = (draft, code) => Boolean(draft.limits.wild) && physical(code).slice(0, -1) === draft.limits.wild;

// How many copies of each card the deal holds (the picker never offers one more).
export const copies = (draft) => draft.limits.copies;

export const newKey = () =>
  crypto.randomUUID?.() ??
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

// A new entry for a match's seats: every player with one empty meld, the first one's tapped into.
export function freshDraft(seats, limits) {
  return {
    limits,
    flags: Object.fromEntries(limits.flags.map((flag) => [flag.name, flag.default])),
    key: newKey(),
    started: Date.now(),
    ending: null,
    wentOut: null,
    reason: "",
    etag: null,
    players: seats.map((seat) => ({ id: seat.player, name: seat.name, melds: [[]], hand: [] })),
    active: { player: 0, group: 0 },
  };
}

// The hand being entered takes the next number (`next`: {number, dealer}) after a hand before
// it was voided. What was shared of it went with its old number's draft, which the void
// emptied on the server: nothing of it counts as shared any more, every part this phone may
// write goes again, whole, to the draft of its new number, and a new key records it. A
// player's own phone (`own`: their seat's index) writes their part alone: the others' parts
// it holds came from the other phones, which share them again, and are cleared here.
export function renumber(draft, next, own = null) {
  delete draft.shared;
  Object.assign(draft, next);
  draft.key = newKey();
  draft.etag = null;
  if (own === null) return;
  draft.ending = null;
  draft.wentOut = null;
  draft.players.forEach((player, index) => {
    if (index === own) return;
    player.melds = [[]];
    player.hand = [];
  });
}

// A recorded hand (GET hands/{n}/) as a draft to correct, with the ETag it was read with.
export function draftFromHand(hand, etag, seats, limits) {
  const byPlayer = Object.fromEntries(hand.results.map((r) => [r.player, r]));
  const fresh = freshDraft(seats, limits);
  for (const flag of limits.flags) {
    if (typeof hand[flag.name] === "boolean") fresh.flags[flag.name] = hand[flag.name];
  }
  for (const player of fresh.players) {
    const result = byPlayer[player.id];
    if (!result) continue;
    player.melds = [...result.melds.map((m) => [...m.cards]), []];
    player.hand = result.held.map((c) => c.card);
  }
  fresh.ending = hand.ending;
  fresh.wentOut = hand.went_out;
  fresh.etag = etag;
  fresh.version = hand.version;
  fresh.dealer = hand.dealer;
  fresh.active = { player: 0, group: fresh.players[0].melds.length - 1 };
  return fresh;
}

// How many of each physical card the draft holds already: {"QS": 2, …}.
export function counts(draft) {
  const seen = {};
  for (const player of draft.players) {
    for (const code of [...player.melds.flat(), ...player.hand]) {
      seen[physical(code)] = (seen[physical(code)] ?? 0) + 1;
    }
  }
  return seen;
}

// The first card of `codes` that would be a third copy in the draft, or null.
export function overCopies(draft, codes) {
  const seen = counts(draft);
  for (const code of codes) {
    seen[physical(code)] = (seen[physical(code)] ?? 0) + 1;
    if (seen[physical(code)] > copies(draft)) return physical(code);
  }
  return null;
}

export const activePlayer = (draft) => draft.players[draft.active.player];
export const lastMeld = (player) => player.melds.length - 1;
export const cardTotal = (player) => player.melds.flat().length + player.hand.length;
export const isEmpty = (draft) => !draft.players.some((p) => p.hand.length || p.melds.some((m) => m.length));

// Make player `index` the one being entered, into their last meld.
export function selectPlayer(draft, index) {
  draft.active = { player: index, group: lastMeld(draft.players[index]) };
}

// The next player after the one being entered (after the last comes the first).
export const nextPlayerIndex = (draft) => (draft.active.player + 1) % draft.players.length;

// Where the next taps go: a meld index or "hand".
export function target(draft, group) {
  // leaving the melds for the cards in hand: an empty meld left after others (opened by a
  // filled run or a taken offer) goes, rather than stay on screen as "Meld 3 —"
  const melds = activePlayer(draft).melds;
  if (group === "hand" && melds.length > 1 && !melds[melds.length - 1].length) melds.pop();
  draft.active.group = group;
}

// Start a new meld (or reuse the empty one at the end) and make it the target of taps.
export function openMeld(draft, player = activePlayer(draft)) {
  const last = player.melds.length - 1;
  if (last < 0 || player.melds[last].length) player.melds.push([]);
  draft.active.group = player.melds.length - 1;
}

// Cards tapped or typed, to where the taps go now; returns the cards counted once because
// another phone had entered them for this player already (creditTap).
export function addCards(draft, tapped) {
  const player = activePlayer(draft);
  const field = draft.active.group === "hand" ? "hand" : "melds";
  const credited = [];
  const codes = tapped.filter((code) => !(creditTap(draft, player.id, field, code) && credited.push(code)));
  if (!codes.length) return credited;
  draft.filled = null; // a run's gap is offered only until the next card is tapped
  if (draft.active.group === "hand") {
    player.hand.push(...codes);
  } else {
    // typed cards all go to the meld they were typed for (the preview judges its length);
    // a meld filled to the game's longest starts the next one, ready for the next tap
    const meld = player.melds[draft.active.group];
    meld.push(...codes);
    if (draft.limits.maxMeld && meld.length >= draft.limits.maxMeld) openMeld(draft, player);
  }
  return credited;
}

export function removeCard(draft, playerIndex, group, index) {
  const player = draft.players[playerIndex];
  dropCredit(draft, player.id);
  if (group === "hand") player.hand.splice(index, 1);
  else player.melds[group].splice(index, 1);
}

export function removeMeld(draft, playerIndex, group) {
  const player = draft.players[playerIndex];
  dropCredit(draft, player.id);
  player.melds.splice(group, 1);
  if (!player.melds.length) player.melds.push([]);
  if (draft.active.player === playerIndex && typeof draft.active.group === "number") {
    draft.active.group = Math.min(draft.active.group, player.melds.length - 1);
  }
}

// Replace a meld's cards (a suggestion taken): the meld is then whole, so when it is the one
// being entered the next taps go to a new meld, as after an offer taken.
export function setMeld(draft, playerIndex, group, codes) {
  draft.players[playerIndex].melds[group] = [...codes];
  if (draft.active.player === playerIndex && draft.active.group === group) openMeld(draft);
}

// Say what a two in a meld stands for (null or the two itself: the two as a two).
export function declare(draft, playerIndex, group, index, represents) {
  const meld = draft.players[playerIndex].melds[group];
  const card = physical(meld[index]);
  meld[index] = represents && represents !== card ? `${card}=${represents}` : card;
}

export function setFlag(draft, name, value) {
  draft.flags = { ...draft.flags, [name]: value };
}

export function setEnding(draft, ending, wentOut) {
  draft.ending = ending;
  draft.wentOut = wentOut;
}

// The body the API reads; `labels` picks what names the players (ids to record, names to preview).
export function body(draft, labels) {
  const melds = (player) => player.melds.filter((meld) => meld.length);
  const label = (player) => (labels === "ids" ? player.id : player.name);
  const out = {
    ending: draft.ending ?? "went_out",
    results: draft.players.map((player) => ({ player: label(player), melds: melds(player), hand: [...player.hand] })),
  };
  const wentOut = draft.players.find((p) => p.id === draft.wentOut);
  out.went_out = draft.ending === "went_out" && wentOut ? label(wentOut) : null;
  for (const flag of draft.limits.flags) out[flag.name] = Boolean(draft.flags?.[flag.name]);
  return out;
}

// The index of a draft meld among the non-empty melds the API sees (-1 for an empty one).
export function meldBodyIndex(player, group) {
  if (!player.melds[group].length) return -1;
  return player.melds.slice(0, group).filter((m) => m.length).length;
}

// Where an error's `attr` points in the draft: {player, group} (group a meld index, "hand",
// or null for the player as a whole), or null for the hand as a whole.
export function place(draft, attr) {
  const parts = (attr ?? "").split(".");
  if (parts[0] !== "results" || parts.length < 2 || !/^\d+$/.test(parts[1])) return null;
  const playerIndex = Number(parts[1]);
  const player = draft.players[playerIndex];
  if (!player) return null;
  if (parts[2] === "hand") return { player: playerIndex, group: "hand" };
  if (parts[2] === "melds" && /^\d+$/.test(parts[3] ?? "")) {
    // the body leaves out empty melds: count the non-empty ones to find the draft's meld
    let seen = -1;
    const target = Number(parts[3]);
    for (let index = 0; index < player.melds.length; index += 1) {
      if (player.melds[index].length) seen += 1;
      if (seen === target) return { player: playerIndex, group: index };
    }
  }
  return { player: playerIndex, group: null };
}

// The violations about one meld (or "hand", or null: the player as a whole) of one player.
export function violationsAt(draft, violations, playerIndex, group) {
  return violations.filter((v) => {
    const where = place(draft, v.attr);
    return where && where.player === playerIndex && where.group === group;
  });
}

export const generalViolations = (draft, violations) => violations.filter((v) => !place(draft, v.attr));
export const playerViolations = (draft, violations, i) => violations.filter((v) => place(draft, v.attr)?.player === i);

// The players' melds and held cards as the API reads them, keyed by player id (a 412's
// side-by-side view compares two of these).
export const rows = (draft) =>
  draft.players.map((p) => ({ player: p.id, melds: p.melds.filter((m) => m.length), hand: p.hand }));

// --- shortcuts: whole melds offered from the first cards tapped ----------------------------
// An offer only fills in cards the scorekeeper would tap anyway, and only cards with a copy
// left in the deal (never a third copy); whether the meld is legal stays the API's ruling.

const ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

// Copies of `card` still free in a deal of `copies` copies, `seen` being taken.
export const left = (seen, card, copies) => copies - (seen[card] ?? 0);

// Copies still free for the offer, counting the cards the offer itself takes.
function available(seen, cards, copies) {
  const taken = {};
  return cards.every((card) => {
    taken[card] = (taken[card] ?? 0) + 1;
    return taken[card] <= left(seen, card, copies);
  });
}

// A run from its two end cards (tapped in either order), with the cards between when each has
// a copy left; null otherwise. The ace is low below a three (A 2 3) or high above a queen
// (Q K A). `maxLength` null: no upper limit.
export function runFromEnds(first, second, seen, copies, maxLength) {
  return runsFromEnds(first, second, seen, copies, maxLength)[0] ?? null;
}

// Every run the two end cards make (two when an ace could be low or high), as above.
function runsFromEnds(first, second, seen, copies, maxLength) {
  if (first.includes("=") || second.includes("=")) return [];
  const [a, b] = [first, second].map((code) => ({ rank: code.slice(0, -1), suit: code.slice(-1) }));
  if (a.suit !== b.suit || a.rank === b.rank) return [];
  const runs = [];
  for (const order of [ORDER, [...ORDER.slice(1), "A"]]) {
    const [from, to] = [order.indexOf(a.rank), order.indexOf(b.rank)].sort((x, y) => x - y);
    const length = to - from + 1;
    if (length < 3 || (maxLength && length > maxLength)) continue;
    const cards = order.slice(from, to + 1).map((rank) => `${rank}${a.suit}`);
    // the two ends are in the draft already: only the cards between must be free
    // without an ace both orders make the same run: it is one
    const same = runs.some((run) => run.join(" ") === cards.join(" "));
    if (!same && available(seen, cards.slice(1, -1), copies)) runs.push(cards);
  }
  return runs;
}

// A run entered by its two ends: when the meld being entered holds just two natural cards of
// one suit with a gap between them, and exactly one run joins them with every card between
// still free, the meld becomes that run and the next taps go to a new meld. Returns the run,
// or null (the two cards stay as tapped). A wild card at either end is never filled around:
// a two beside a card may stand for another, so its runs are offered instead.
export function fillRun(draft) {
  const group = draft.active.group;
  if (group === "hand") return null;
  const player = activePlayer(draft);
  const meld = player.melds[group];
  if (meld.length !== 2 || meld.some((code) => code.includes("=") || isWild(draft, code))) return null;
  const runs = runsFromEnds(meld[0], meld[1], counts(draft), copies(draft), draft.limits.maxMeld);
  if (runs.length !== 1) return null;
  player.melds[group] = [...runs[0]];
  draft.filled = { player: draft.active.player, group, cards: [...runs[0]] };
  openMeld(draft, player);
  return runs[0];
}

// Sets completing the cards tapped so far (one card, or two of one rank): all four suits, and
// each set of three, with every card still free. Sets repeating a suit are tapped as cards.
export function setsFrom(codes, seen, copies, suits = ["S", "H", "D", "C"]) {
  if (!codes.length || codes.length > 2 || codes.some((code) => code.includes("="))) return [];
  const rank = codes[0].slice(0, -1);
  if (codes.some((code) => code.slice(0, -1) !== rank)) return [];
  const have = codes.map((code) => code.slice(-1));
  if (new Set(have).size !== have.length) return [];
  const others = suits.filter((suit) => !have.includes(suit));
  const offers = [];
  const add = (extra) => {
    const cards = extra.map((suit) => `${rank}${suit}`);
    if (available(seen, cards, copies)) offers.push([...codes, ...cards]);
  };
  if (have.length + others.length === 4) add(others);
  if (have.length === 1) {
    for (let i = 0; i < others.length; i += 1) {
      for (let j = i + 1; j < others.length; j += 1) add([others[i], others[j]]);
    }
  } else {
    for (const suit of others) add([suit]);
  }
  return offers;
}

// The offers for the meld being entered: sets after its first card (or two of a rank), a run
// after its two end cards; right after a run was filled from its ends, that run with a two in
// one of its gaps. Nothing while the cards are entered into the hand.
export function offers(draft) {
  const group = draft.active.group;
  if (group === "hand") return [];
  const meld = activePlayer(draft).melds[group] ?? [];
  const seen = counts(draft);
  const found = [];
  if (meld.length === 2) {
    const run = runFromEnds(meld[0], meld[1], seen, copies(draft), draft.limits.maxMeld);
    if (run && run.length > 2) found.push({ kind: "run", cards: run });
  }
  for (const cards of setsFrom(meld, seen, copies(draft))) found.push({ kind: "set", cards });
  for (const gap of gapsFrom(draft, meld, seen)) found.push({ kind: "gap", ...gap });
  if (!meld.length) for (const gap of filledGaps(draft, seen)) found.push({ kind: "gap", ...gap });
  return found;
}

// Runs from two end cards where one card between is left to a wild card (Arlington's two):
// [{cards, gap, stands}] with `cards[gap]` the card the two would stand for. Offered only when
// a wild card has a copy left and every other card between is free.
export function gapsFrom(draft, meld, seen) {
  if (!draft.limits.wild || meld.length !== 2 || meld.some((code) => code.includes("="))) return [];
  // the run the ends make, whatever is left of the card the two will stand for
  const run = runFromEnds(meld[0], meld[1], {}, copies(draft), draft.limits.maxMeld);
  return run ? gapsIn(draft, run, seen) : [];
}

function gapsIn(draft, run, seen) {
  const wild = draft.limits.wild;
  if (!wild || !freeWilds(draft).length) return [];
  const found = [];
  for (let gap = 1; gap < run.length - 1; gap += 1) {
    const others = run.slice(1, -1).filter((_, i) => i + 1 !== gap);
    if (!available(seen, others, copies(draft))) continue;
    if (run[gap].slice(0, -1) === wild) continue; // a two as itself is tapped as a card
    found.push({ cards: run, gap, stands: run[gap] });
  }
  return found;
}

// The run just filled from its two ends (fillRun), until the next card or offer is taken: the
// same run with a two in one gap instead of the card filled there, each offer naming the meld
// it changes (`group`). The cards filled in are counted as free again, since the two replaces
// one of them.
function filledGaps(draft, seen) {
  const filled = draft.filled;
  if (!filled || filled.player !== draft.active.player || filled.group === draft.active.group) return [];
  const meld = activePlayer(draft).melds[filled.group];
  if (!meld || meld.join(" ") !== filled.cards.join(" ")) return [];
  const freed = { ...seen };
  for (const card of filled.cards.slice(1, -1)) freed[card] -= 1;
  return gapsIn(draft, filled.cards, freed).map((gap) => ({ ...gap, group: filled.group }));
}

// The wild cards (twos) with a copy left, for a gap.
export function freeWilds(draft) {
  const seen = counts(draft);
  return ["S", "H", "D", "C"].map((suit) => `${draft.limits.wild}${suit}`).filter((two) => left(seen, two, copies(draft)) > 0);
}

// A gap filled: the meld's cards with `two` in place of the card at `gap` (left bare: what it
// stands for is the API's suggestion, declared by the caller), in meld `group` of the player
// being entered.
export function fillGap(draft, cards, gap, two, group = draft.active.group) {
  const meld = cards.map((card, i) => (i === gap ? two : card));
  activePlayer(draft).melds[group] = meld;
  draft.filled = null;
  return meld;
}

// An offer taken: the meld becomes its cards and the next taps go to a new meld.
export function takeOffer(draft, cards) {
  const player = activePlayer(draft);
  draft.filled = null;
  player.melds[draft.active.group] = [...cards];
  openMeld(draft, player);
}

// --- the rest: the last player's held cards when the stock ran out --------------------------

// Every card of the deal not yet entered (nor `topDiscard`, the card left on the pile), in
// suit then rank order: what the last player still holds.
export function theRest(draft, topDiscard, suits = ["S", "H", "D", "C"]) {
  const seen = counts(draft);
  if (topDiscard) seen[topDiscard] = (seen[topDiscard] ?? 0) + 1;
  const rest = [];
  for (const suit of suits) {
    for (const rank of ORDER) {
      const card = `${rank}${suit}`;
      for (let n = left(seen, card, copies(draft)); n > 0; n -= 1) rest.push(card);
    }
  }
  return rest;
}

// "The rest" is offered to one player only: when the stock ran out and every other player has
// cards entered, the one player who has none yet.
export function restOffered(draft) {
  if (draft.ending !== "stock_exhausted" || !draft.limits.endings.includes("stock_exhausted")) return false;
  const player = activePlayer(draft);
  if (player.hand.length) return false;
  return draft.players.every((p) => p === player || cardTotal(p) > 0);
}

export function addRest(draft, topDiscard) {
  activePlayer(draft).hand.push(...theRest(draft, topDiscard));
  draft.topDiscard = topDiscard ?? null;
}

// --- sharing the entry with the other phones at the table ----------------------------------
// The API keeps a draft of the next hand in parts: the ending, and each player's melds and
// held cards (GET/PUT matches/{id}/hands/{n}/draft/…), each part with a version of its own.
// Here the local draft is compared with what was last shared (`draft.shared.base`), field by
// field: what only this phone changed is sent, what only another phone changed is taken, and
// a field both changed takes the other phone's and is reported, never dropped in silence.

export const ENDING_PART = "ending";

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// A draft made before sharing existed gets its empty record of what was shared.
export function sharedOf(draft) {
  draft.shared ??= { base: {}, versions: {}, mine: {}, by: {} };
  draft.shared.conflicts ??= {};
  draft.shared.ahead ??= {};
  draft.shared.contested ??= {}; // what this phone offered beside a part: {version, data}
  draft.shared.drops ??= {}; // offers beside parts to withdraw on the server: the version kept
  draft.shared.chosen ??= {}; // a choice made here not yet answered: {version, own, picked}
  for (const key of Object.keys(draft.shared.drops)) {
    if (draft.shared.drops[key] !== true) continue;
    // saved before a withdrawal named the version it keeps: the one last seen here, and the
    // choice remembered as one made now would be (the part as written kept), so that a
    // refusal settles it instead of holding the player's taps back for good
    const version = draft.shared.versions[key] ?? 0;
    draft.shared.drops[key] = version;
    const picked = draft.shared.base[key] ?? emptyPart(draft, key);
    draft.shared.chosen[key] ??= { version, own: partData(draft, key), picked };
  }
  return draft.shared;
}

// One part's fields as they stand in the draft (`key` "ending" or a player id).
export function partData(draft, key) {
  if (key === ENDING_PART) {
    return {
      ending: draft.ending ?? null,
      went_out: draft.ending === "went_out" ? draft.wentOut ?? null : null,
      flags: { ...(draft.flags ?? {}) },
    };
  }
  const player = draft.players.find((p) => String(p.id) === String(key));
  return { melds: player.melds.filter((m) => m.length).map((m) => [...m]), hand: [...player.hand] };
}

// Whether two versions of a player's cards hold the same cards: the same melds and the same
// cards in hand, in whatever order they were tapped (as the API compares a version offered
// beside a part with the part).
export function sameCards(a, b) {
  const norm = (part) => JSON.stringify({
    melds: (part.melds ?? []).filter((m) => m.length).map((m) => JSON.stringify([...m].sort())).sort(),
    hand: [...(part.hand ?? [])].sort(),
  });
  return norm(a) === norm(b);
}

// Whether `all` holds every card of `part`, melds with melds and held cards with held cards
// (a recorded hand holding what this phone shared of a player, and maybe more that other
// phones entered).
export function holdsAll(all, part) {
  return ["melds", "hand"].every((field) => within(cardsOf(field, part[field] ?? []), cardsOf(field, all[field] ?? [])));
}

// What a part was before anybody shared it: nothing entered.
function emptyPart(draft, key) {
  if (key === ENDING_PART) {
    return { ending: null, went_out: null, flags: Object.fromEntries(draft.limits.flags.map((f) => [f.name, f.default])) };
  }
  return { melds: [], hand: [] };
}

function setPart(draft, key, data) {
  if (key === ENDING_PART) {
    draft.ending = data.ending;
    draft.wentOut = data.ending === "went_out" ? data.went_out : null;
    draft.flags = { ...draft.flags, ...data.flags };
    return;
  }
  const index = draft.players.findIndex((p) => String(p.id) === String(key));
  const player = draft.players[index];
  player.hand = [...data.hand];
  if (sameJson(player.melds.filter((m) => m.length), data.melds)) return;
  const tapping = draft.active.player === index && draft.active.group !== "hand" ? player.melds[draft.active.group] ?? [] : null;
  player.melds = [...data.melds.map((m) => [...m]), []];
  if (tapping === null) return;
  // the meld being tapped here stays the target where the new melds hold all its cards (the
  // other phone further on in the same meld: the next taps go on into it, not into a meld of
  // their own); a meld not begun yet is the empty one at the end
  const holds = (meld) => meld.length && within(cardsOf("hand", tapping), cardsOf("hand", meld));
  const same = draft.active.group < data.melds.length && holds(player.melds[draft.active.group]);
  const found = tapping.length ? (same ? draft.active.group : player.melds.findIndex(holds)) : -1;
  draft.active.group = found >= 0 ? found : player.melds.length - 1;
}

// The parts this phone changed since they were last shared (the ending only once it is
// answered, a player's only once something was entered for them).
export function pendingParts(draft) {
  const shared = sharedOf(draft);
  const keys = [...(draft.ending ? [ENDING_PART] : []), ...draft.players.map((p) => String(p.id))];
  // a part whose offer this phone withdraws is written once the withdrawal is answered, from
  // the version it moved the part to
  return keys.filter((key) => !shared.conflicts[key] && !(key in shared.drops)
    && !sameJson(partData(draft, key), shared.base[key] ?? emptyPart(draft, key)));
}

// The parts of an API draft answer, by key, as {data, version, by}.
export function partsOfAnswer(answer) {
  const parts = {};
  if (answer.ending) {
    const { ending, went_out: wentOut, flags, version, by } = answer.ending;
    parts[ENDING_PART] = { data: { ending, went_out: wentOut ?? null, flags: flags ?? {} }, version, by };
  }
  for (const part of answer.players ?? []) {
    parts[String(part.player)] = {
      data: { melds: part.melds, hand: part.hand }, version: part.version, by: part.by,
      contest: part.contest ?? null, declined: part.declined ?? null,
    };
  }
  return parts;
}

// The physical cards of a player's field ("melds" or "hand") as a multiset: {"7H": 2, …}.
function cardsOf(field, value) {
  const seen = {};
  for (const code of field === "melds" ? value.flat() : value) seen[physical(code)] = (seen[physical(code)] ?? 0) + 1;
  return seen;
}

// Whether every card of multiset `some` is in multiset `all`, as many times.
const within = (some, all) => Object.entries(some).every(([card, n]) => (all[card] ?? 0) >= n);

// What multiset `all` holds beyond `some`.
function beyond(all, some) {
  const rest = {};
  for (const [card, n] of Object.entries(all)) if (n > (some[card] ?? 0)) rest[card] = n - (some[card] ?? 0);
  return rest;
}

// Cards another phone entered in a player's field that this phone has not tapped: added to
// the field's credit (creditTap takes them).
function credit(shared, key, field, cards) {
  shared.ahead[key] ??= {};
  const ahead = (shared.ahead[key][field] ??= {});
  for (const [card, n] of Object.entries(cards)) ahead[card] = (ahead[card] ?? 0) + n;
}

// A credit never exceeds the cards the field now holds: a card the other phone took back is
// no longer credited, so that tapping it here enters it.
function clampCredit(shared, key, part) {
  const ahead = shared.ahead[key];
  if (!ahead) return;
  for (const [field, cards] of Object.entries(ahead)) {
    const held = cardsOf(field, part[field] ?? []);
    for (const card of Object.keys(cards)) cards[card] = Math.min(cards[card], held[card] ?? 0);
  }
}

// A player's field changed on this phone and on another since they last agreed, merged by its
// cards, never by appending one list to the other: when one phone's cards are all in the
// other's (both tapping the same hand, one further on), the fuller version is the field, and
// the cards this phone has not tapped yet are credited to it (`shared.ahead`), so that tapping
// them here too counts them once. Null when each holds a card the other has not: two versions
// of the player's cards, for the people at the table to choose from.
function mergeField(shared, key, field, local, theirs, base) {
  const [mine, other] = [cardsOf(field, local), cardsOf(field, theirs)];
  if (within(mine, other)) {
    credit(shared, key, field, beyond(other, mine));
    return field === "melds" ? declaredFrom(theirs, local, base) : theirs;
  }
  if (within(other, mine)) return field === "melds" ? declaredFrom(local, theirs, base) : local;
  return null;
}

// The fuller version's melds, with what a two stands for said on the other phone: a meld of
// `kept` holding every card of a meld of `other` takes that meld's declaration of a two it
// holds bare (a phone saying "2♥=A♦" while another adds a card: both count), or of a two whose
// declaration in `kept` is still the one both phones last saw (`base`) while `other` said it
// anew (2♥=A♦ changed to 2♥=J♦ on one phone while the other adds a meld: the change counts).
// A two declared anew on each phone keeps the fuller version's declaration.
function declaredFrom(kept, other, base) {
  const before = base.flat();
  const melds = kept.map((meld) => [...meld]);
  for (const said of other) {
    const declared = said.filter((code) => code.includes("="));
    if (!declared.length) continue;
    const into = melds.find((meld) => meld.length && within(cardsOf("hand", said), cardsOf("hand", meld)));
    if (!into) continue;
    for (const code of declared) {
      const at = into.findIndex((card) => physical(card) === physical(code));
      if (at < 0 || into[at] === code) continue;
      const bare = !into[at].includes("=");
      if (bare || (before.includes(into[at]) && !before.includes(code))) into[at] = code;
    }
  }
  return melds;
}

// Whether both phones said anew what one two stands for (since `base`, the version both last
// saw), each something else, and this phone's answer (`local`) is not the one `merged` kept.
function declarationReplaced(base, local, theirs, merged) {
  const before = base.flat();
  const kept = merged.flat();
  const said = (melds) => melds.flat().filter((code) => code.includes("=") && !before.includes(code));
  const other = said(theirs);
  return said(local).some((code) => !kept.includes(code)
    && other.some((code2) => physical(code2) === physical(code) && code2 !== code));
}

// What this phone changed in a part since it last saw it shared (`base`), or null for
// nothing: the ending's answers as they stand here; a player's cards beyond those shared, card
// by card (a meld keeps only its cards tapped since, a meld left with none goes), so that
// nothing thrown away on another phone comes back with them.
function unsentOf(key, local, base) {
  if (sameJson(local, base)) return null;
  if (key === ENDING_PART) return local;
  const counts = (codes) => {
    const seen = {};
    for (const code of codes) seen[code] = (seen[code] ?? 0) + 1;
    return seen;
  };
  const minus = (codes, shared) => codes.filter((code) => {
    if (!(shared[code] > 0)) return true;
    shared[code] -= 1; // one shared copy accounts for this card
    return false;
  });
  const sharedMelds = counts(base.melds.flat());
  return {
    melds: local.melds.map((meld) => minus(meld, sharedMelds)).filter((meld) => meld.length),
    hand: minus(local.hand, counts(base.hand)),
  };
}

// Take in another phone's parts: each part newer than the one this phone last saw is merged
// with this phone's own changes since then, field by field. A field only one phone changed
// takes that phone's; a player's field both changed merges by its cards (mergeField), and
// where the two versions hold different cards this phone's stays on screen and the other
// phone's waits beside it in `shared.conflicts` for a choice (nothing of that part is sent
// meanwhile, and a newer version from the other phone replaces the one offered); the ending's
// answers, one value each, take the other phone's when both phones changed the same one
// differently. Returns {changed, clashes, restarted}: whether the draft changed, the keys of
// the parts where an ending's answer of this phone's gave way, and whether the hand was
// started again on another phone (parts shared before are gone), and `kept`: the players
// whose cards another phone's choice between two versions replaced here, [{key, whose}],
// `whose` "theirs" (it kept its own version) or "yours" (it chose this phone's, while this
// phone had chosen the other's); the screen says so.
export function adoptShared(draft, answer) {
  const shared = sharedOf(draft);
  const clashes = [];
  const kept = [];
  let changed = false;
  let restarted = false;
  const parts = partsOfAnswer(answer);
  for (const key of Object.keys(shared.versions)) {
    // a part this phone saw written is no longer in the draft: the hand was started again
    // (DELETE …/draft/). What was shared goes, here too; what this phone had not shared yet
    // stays, to be sent as a new part, unless it waited for a choice between two versions:
    // both were tapped before the hand was cleared, and clearing it settles the choice.
    if (parts[key] || !(shared.versions[key] > 0)) continue;
    const local = partData(draft, key);
    const unsent = shared.conflicts[key] ? null : unsentOf(key, local, shared.base[key] ?? emptyPart(draft, key));
    const kept = unsent ?? emptyPart(draft, key);
    forgetPart(draft, key);
    restarted = true;
    if (!sameJson(kept, local)) {
      setPart(draft, key, kept);
      changed = true;
    }
  }
  for (const [key, part] of Object.entries(parts)) {
    if (key !== ENDING_PART && !draft.players.some((p) => String(p.id) === key)) continue;
    if (key !== ENDING_PART) {
      const outcome = overtaken(draft, shared, key, part) ?? adoptOffer(draft, shared, key, part);
      changed ||= outcome !== null;
      if (outcome === "declined") kept.push({ key, whose: "theirs" });
      if (outcome === "yours") kept.push({ key, whose: "yours" });
    }
    if (part.version <= (shared.versions[key] ?? 0)) continue;
    const base = shared.base[key] ?? emptyPart(draft, key);
    const local = partData(draft, key);
    const whole = { ...base, ...part.data };
    const by = part.by ?? "";
    shared.base[key] = whole;
    shared.versions[key] = part.version;
    // who else entered this part: its writers but this phone, as the API names them
    const before = Array.isArray(shared.by[key]) ? shared.by[key] : [];
    shared.by[key] = [...new Set([...before, by])];
    if (shared.conflicts[key]) {
      // a choice is awaited: this phone's cards stay as tapped here, the other phone's newer
      // version is the one offered beside them; the two holding the same cards, in whatever
      // order, settles it (the part's order taken here, so that nothing is sent back)
      if (sameCards(local, whole)) {
        delete shared.conflicts[key];
        delete shared.contested[key];
        if (!sameJson(local, whole)) setPart(draft, key, whole);
      } else shared.conflicts[key] = { ...shared.conflicts[key], theirs: whole, by };
      changed = true;
      continue;
    }
    let merged = {};
    let differs = false;
    for (const field of Object.keys(base)) {
      const theirs = part.data[field] ?? base[field];
      if (sameJson(local[field], base[field]) && key !== ENDING_PART) {
        // only the other phone changed it: the cards it added are credited to this phone,
        // so that tapping them here too, as the person copying the same hand will, counts
        // them once
        merged[field] = theirs;
        credit(shared, key, field, beyond(cardsOf(field, theirs), cardsOf(field, local[field])));
      } else if (sameJson(local[field], base[field]) || sameJson(local[field], theirs)) merged[field] = theirs;
      else if (sameJson(theirs, base[field])) merged[field] = local[field];
      else if (key === ENDING_PART) {
        merged[field] = theirs;
        clashes.push(key);
      } else {
        merged[field] = mergeField(shared, key, field, local[field], theirs, base[field]);
        if (merged[field] === null) differs = true;
        // the same cards, but a two said to stand for one card here and for another there:
        // the other phone's answer is kept, and the screen says so, as for the ending's
        else if (field === "melds" && declarationReplaced(base[field], local[field], theirs, merged[field])) clashes.push(key);
      }
    }
    if (key !== ENDING_PART) clampCredit(shared, key, differs ? local : merged);
    if (differs) {
      // two versions: this phone's stays on screen, and taps go on into it. The cards it took
      // from the other phone before the two parted stay credited: the person copying the same
      // hand here taps them again, and each still counts once
      shared.conflicts[key] = { theirs: whole, by, origin: "here" };
      changed = true;
    } else if (!sameJson(merged, local)) {
      setPart(draft, key, merged);
      changed = true;
    }
  }
  return { changed, clashes: [...new Set(clashes)], restarted, kept };
}

// A part as it stands in the draft taken here whole, over this phone's cards: the choice
// between two versions of it was made on another phone. Nothing of it waits to be sent.
function takeKept(draft, shared, key, part) {
  for (const held of [shared.conflicts, shared.contested, shared.drops, shared.chosen, shared.ahead]) delete held[key];
  shared.base[key] = { melds: part.data.melds, hand: part.data.hand };
  shared.versions[key] = part.version;
  const before = Array.isArray(shared.by[key]) ? shared.by[key] : [];
  shared.by[key] = [...new Set([...before, part.by ?? ""])];
  setPart(draft, key, shared.base[key]);
}

// A choice made here between two versions of a player's cards, not answered yet, overtaken:
// the part moved on from the version it was made on. Either the choice made here counts
// after all, or another phone's did and the server refuses this one. It counts when the part
// holds the cards picked (the other phone chose the same version at once), or when this
// phone kept the part as written and the part's `declined` names the version the choice was
// made on: that withdrawal, this phone's own whose answer was lost or another phone's made at
// once, kept what this phone chose. The choice is then settled without touching this phone's
// cards: the part, from the version the choice made it, is merged as any newer part is, and
// what was tapped here while the choice waited is sent. Otherwise the part as it stands is
// taken here. Returns null (no such choice), "agreed" (this phone's choice counts), "yours"
// (another phone chose this phone's version, this phone the other's) or "declined" (it kept
// its own).
function overtaken(draft, shared, key, part) {
  const choice = shared.chosen[key];
  if (!choice || part.version <= choice.version) return null;
  const withdrawn = key in shared.drops;
  if (sameCards(part.data, choice.picked) || (withdrawn && part.declined?.version === choice.version)) {
    // a withdrawal kept the part as this phone last saw it; a write, the cards picked
    if (!withdrawn) shared.base[key] = choice.picked;
    for (const held of [shared.conflicts, shared.contested, shared.drops, shared.chosen, shared.ahead]) delete held[key];
    return "agreed";
  }
  takeKept(draft, shared, key, part);
  return sameCards(part.data, choice.own) ? "yours" : "declined";
}

// A version of a player's cards offered beside their part by another phone (the part's
// `contest`, PUT …/contest/), or the end of one: the two versions shown here too, so that the
// choice can be made on this phone as on the other; gone again once it is made anywhere.
// Returns null (nothing changed here), "shown", "gone" or "declined": this phone's own offer
// was declined on another phone, which kept the part as written (the part's `declined` names
// the version of the offer), and so this phone takes the part, however far it moved since.
function adoptOffer(draft, shared, key, part) {
  const offer = part.contest;
  const here = shared.conflicts[key];
  const mine = shared.contested[key];
  const offered = offer && { melds: offer.melds, hand: offer.hand };
  const ownOffer = offer && mine && offer.version === mine.version && sameJson(offered, mine.data);
  if (offer && !ownOffer) {
    if (sameCards(partData(draft, key), offered)) {
      // this phone holds the cards offered: the two agree, and there is no choice to make;
      // this phone's cards go out as the part, which withdraws the offer on the server
      if (!here) return null;
      delete shared.conflicts[key];
      delete shared.contested[key];
      return "gone";
    }
    if (here?.origin === "here") return null; // this phone differs too: its own choice stands
    if (here && sameJson(here.theirs, offered) && here.by === offer.by) return null;
    shared.conflicts[key] = { theirs: offered, by: offer.by ?? "", origin: "offered" };
    return "shown";
  }
  if (offer) return null; // this phone's own offer, waiting for a choice
  if (here?.origin === "offered") {
    delete shared.conflicts[key];
    return "gone";
  }
  if (here?.origin === "here" && mine && part.declined?.version === mine.version) {
    // the other phone kept the part as written over this phone's offer (DELETE …/contest/):
    // taken here as it now stands, with whatever was tapped there since
    takeKept(draft, shared, key, part);
    return "declined";
  }
  return null;
}

// Players whose cards this phone holds differently from their part and has not offered beside
// it as they now stand (the part's version, or this phone's cards, moved on since).
export function pendingOffers(draft) {
  const shared = sharedOf(draft);
  return Object.entries(shared.conflicts)
    .filter(([, found]) => found.origin === "here")
    .map(([key]) => key)
    .filter((key) => {
      const mine = shared.contested[key];
      return !mine || mine.version !== (shared.versions[key] ?? 0) || !sameJson(mine.data, partData(draft, key));
    });
}

// This phone's cards for a player were offered beside the part at `version`.
export function markOffered(draft, key, data, version) {
  sharedOf(draft).contested[key] = { version, data };
}

// Offers beside players' parts that this phone's choice withdraws.
export const pendingDrops = (draft) => Object.keys(sharedOf(draft).drops);

export function markDropped(draft, key) {
  const shared = sharedOf(draft);
  delete shared.drops[key];
  delete shared.contested[key];
  delete shared.chosen[key];
}

// The parts whose cards differ between this phone and another: [{key, mine, theirs, by}],
// "mine" being the part as it stands on this phone, taps made since the choice was offered
// included.
export const conflicts = (draft) =>
  Object.entries(sharedOf(draft).conflicts).map(([key, found]) => ({
    key, theirs: found.theirs, by: found.by, mine: partData(draft, key), origin: found.origin ?? "here",
  }));

// One version of a part whose cards differed, chosen: "mine" (this phone's as it stands, sent
// over the part's newest version) or "theirs" (the other phone's newest, as shown).
// A choice made here settles it on every phone: keeping a version other than the part as
// written writes it as the part (which clears any version offered beside it on the server);
// keeping the part as written withdraws the version offered beside it (DELETE …/contest/,
// which moves the part's version on), and then sends what was tapped here while the choice
// waited. Both are made on the part's version seen here: when another phone chose first, the
// server refuses this one, and the part as it stands is taken here (overtaken).
export function choose(draft, key, which) {
  const shared = sharedOf(draft);
  const found = shared.conflicts[key];
  if (!found) return;
  const own = partData(draft, key);
  delete shared.conflicts[key];
  delete shared.ahead[key];
  if (which === "theirs") setPart(draft, key, found.theirs);
  const version = shared.versions[key] ?? 0;
  const partKept = found.origin === "offered" ? which === "mine" : which === "theirs";
  if (partKept && (found.origin === "offered" || shared.contested[key])) shared.drops[key] = version;
  else delete shared.contested[key];
  // nothing to send (the part as written kept, no offer of this phone's out): nothing to refuse
  if (!(key in shared.drops) && !pendingParts(draft).includes(key)) return;
  shared.chosen[key] = { version, own, picked: which === "theirs" ? found.theirs : own };
}

// A card tapped into a player's field that another phone entered and this phone had not
// tapped yet: counted once. Returns whether the tap was taken by that credit.
export function creditTap(draft, key, field, code) {
  const ahead = sharedOf(draft).ahead[String(key)]?.[field];
  const card = physical(code);
  if (!ahead?.[card]) return false;
  ahead[card] -= 1;
  return true;
}

// This phone edited a player's cards by hand (a card or meld removed): no credit is left.
export function dropCredit(draft, key) {
  delete sharedOf(draft).ahead[String(key)];
}

// A part as never written: known to be empty on the server, at version 0.
function forgetPart(draft, key) {
  const shared = sharedOf(draft);
  shared.base[key] = emptyPart(draft, key);
  shared.versions[key] = 0;
  for (const kept of [shared.conflicts, shared.ahead, shared.by, shared.mine, shared.contested, shared.drops, shared.chosen]) delete kept[key];
}

// The hand started again on this phone (DELETE …/draft/ answered): every part empty here and
// on the server, so that nothing of the old entry is sent again.
export function startAgain(draft) {
  for (const key of [ENDING_PART, ...draft.players.map((p) => String(p.id))]) {
    forgetPart(draft, key);
    setPart(draft, key, emptyPart(draft, key));
  }
  selectPlayer(draft, draft.active.player);
}

// A part this phone sent was kept by the API as `version`.
export function markShared(draft, key, data, version) {
  const shared = sharedOf(draft);
  shared.base[key] = data;
  shared.versions[key] = version;
  shared.mine[key] = version;
  delete shared.chosen[key]; // a choice written here counts
}

// Who entered a part on other phones: their names ("" for a name the API did not give), or
// an empty list when only this phone did.
export function sharedFrom(draft, key) {
  const by = sharedOf(draft).by[String(key)];
  return Array.isArray(by) ? by : [];
}
