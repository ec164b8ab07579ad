// The words of the page's language, handed over by the template (web/labels.py).

const vocabulary = JSON.parse(document.getElementById("vocabulary")?.textContent ?? "{}");

export const sentences = vocabulary.sentences ?? {};

// A sentence by key, with "%(name)s" placeholders filled from `params`.
export function t(key, params = {}) {
  const text = sentences[key] ?? key;
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(params[name] ?? ""));
}

const RED = new Set(["H", "D"]);
export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// "QS" → {rank: "Q", suit: "S"}; "2D=QS" → {rank: "2", suit: "D", represents: {rank: "Q", suit: "S"}}.
export function parseCard(code) {
  const [card, represents] = code.split("=");
  const split = (text) => ({ rank: text.slice(0, -1), suit: text.slice(-1) });
  return { ...split(card), represents: represents ? split(represents) : null };
}

const plainName = ({ rank, suit }) =>
  (vocabulary.suits?.[suit] ?? "{rank}").replace("{rank}", vocabulary.ranks?.[rank] ?? rank);

// A card as players say it in the page's language: "a dama de espadas".
export function cardName(code) {
  const card = parseCard(code);
  const name = plainName(card);
  if (!card.represents) return name;
  return (vocabulary.wild ?? "{card} = {represents}")
    .replace("{card}", name).replace("{represents}", plainName(card.represents));
}

export const kindLabel = (kind) => vocabulary.kinds?.[kind] ?? kind;
export const endingLabel = (ending) => vocabulary.endings?.[ending] ?? ending;

// A card as an element: rank and suit symbol in the suit's colour, its spoken name for
// screen readers and as a tooltip. A two standing for another card shows both.
export function cardElement(code) {
  const card = parseCard(code);
  const element = document.createElement("span");
  element.className = `pc ${RED.has(card.suit) ? "red" : "black"}`;
  element.title = cardName(code);
  element.setAttribute("role", "img");
  element.setAttribute("aria-label", cardName(code));
  element.textContent = `${card.rank}${SUIT_SYMBOLS[card.suit] ?? card.suit}`;
  if (card.represents) {
    const wild = document.createElement("span");
    wild.className = "wild";
    wild.textContent = `=${card.represents.rank}${SUIT_SYMBOLS[card.represents.suit] ?? ""}`;
    element.append(wild);
  }
  return element;
}
