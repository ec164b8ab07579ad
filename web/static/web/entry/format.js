// Points as the entry screen writes them.
import { number } from "../dom.js";

export const signed = (value) => (value > 0 ? `+${number(value)}` : number(value));
// points taken off, signed as every other number of the app is (the language's own minus sign)
export const minus = (points) => number(points ? -points : 0);
