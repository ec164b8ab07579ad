// Cards on screen, written once: their codes ("QS", "2D=QS"), faces (rank and suit symbol in
// the suit's colour) and spoken names in the page's language.
import { vocabulary } from "./i18n.js";

export const SUITS = ["S", "H", "D", "C"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

const RED = new Set(["H", "D"]);
export const isRed = (suit) => RED.has(suit);
export const colour = (suit) => (isRed(suit) ? "red" : "black");

// "QS" → {rank: "Q", suit: "S"}; "2D=QS" → {rank: "2", suit: "D", represents: {rank: "Q", suit: "S"}}.
export function parseCard(code) {
  const [card, represents] = code.split("=");
  const split = (text) => ({ rank: text.slice(0, -1), suit: text.slice(-1) });
  return { ...split(card), represents: represents ? split(represents) : null };
}

// The card itself, without what a two stands for: "2D=QS" → "2D".
export const physical = (code) => code.split("=")[0];
export const isTwo = (code) => parseCard(code).rank === "2";

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

const symbol = (suit) => SUIT_SYMBOLS[suit] ?? suit;

// A card as short text, "Q♠" or "2♦=Q♠", for sentences that name a card on screen.
export function shortFace(code) {
  const card = parseCard(code);
  const text = `${card.rank}${symbol(card.suit)}`;
  return card.represents ? `${text}=${card.represents.rank}${symbol(card.represents.suit)}` : text;
}

// A card's face as an element: rank and suit symbol in the suit's colour; a two standing for
// another card shows both. Inside a labelled control (a chip, a button) this is all it needs.
export function cardFace(code) {
  const card = parseCard(code);
  const element = document.createElement("span");
  element.className = `pc ${colour(card.suit)}`;
  element.textContent = `${card.rank}${symbol(card.suit)}`;
  if (card.represents) {
    const wild = document.createElement("span");
    wild.className = "wild";
    wild.textContent = `=${card.represents.rank}${symbol(card.represents.suit)}`;
    element.append(wild);
  }
  return element;
}

// A card's face standing alone: its spoken name for screen readers and as a tooltip.
export function cardElement(code) {
  const element = cardFace(code);
  element.title = cardName(code);
  element.setAttribute("role", "img");
  element.setAttribute("aria-label", cardName(code));
  return element;
}
