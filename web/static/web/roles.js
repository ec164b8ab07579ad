// Who may do what in a club, as the pages ask it (the API decides; this only picks what to show).
import { getAll } from "./api.js";

export const WRITERS = new Set(["owner", "scorekeeper"]);

// Owners and scorekeepers record, correct and void hands.
export const canWrite = (role) => WRITERS.has(role);

// The seat (index in `match.seats`) of the person signed in, if their login is a seated
// player's (the roster's link); -1 otherwise. Whatever their role, they enter their own hand.
export async function mySeat(match) {
  const me = document.querySelector('meta[name="user"]')?.content;
  if (!me) return -1;
  const roster = await getAll(`players/?club=${match.club}`).catch(() => []);
  const mine = Array.isArray(roster) ? roster.find((player) => player.user === me) : null;
  return mine ? match.seats.findIndex((seat) => seat.player === mine.id) : -1;
}
