// Points as the entry screen writes them.
import { number } from "../dom.js";

export const signed = (value) => (value > 0 ? `+${number(value)}` : number(value));
export const minus = (points) => (points ? `−${number(points)}` : number(0)); // points taken off
