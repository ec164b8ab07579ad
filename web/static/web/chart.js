// The race to the match's target (1,000 in Arlington): each player's total after every hand,
// drawn as inline SVG.
import { number } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
// Distinct hues, each at least 3:1 against white (WCAG's contrast for graphics).
export const COLOURS = ["#1f5fbf", "#b3261e", "#1b7a3a", "#6f3fb5", "#8a5a00"];
export const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2"];

function el(tag, attributes = {}, text) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

// seats: [{player, name}], hands: [{number, results: [{player, total}]}] in order.
// Returns an <svg> with a title naming every player's total, for screen readers.
export function raceChart(seats, hands, { title, target }) {
  const width = 360;
  const height = 220;
  const pad = { left: 44, right: 12, top: 12, bottom: 28 };
  const series = seats.map((seat) => [0, ...hands.map((hand) =>
    hand.results.find((row) => row.player === seat.player)?.total ?? 0)]);
  const all = series.flat();
  const top = Math.max(target, ...all) * 1.05;
  const bottom = Math.min(0, ...all);
  const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / Math.max(1, hands.length);
  const y = (v) => pad.top + ((top - v) * (height - pad.top - pad.bottom)) / (top - bottom);

  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "race", "aria-labelledby": "chart-title" });
  svg.append(el("title", { id: "chart-title" }, title));

  const grid = el("g", { class: "grid" });
  const step = [25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000].find((s) => top / s <= 8) ?? 50000;
  for (let v = Math.ceil(bottom / step) * step || 0; v <= top; v += step) {
    grid.append(el("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), stroke: v === 0 ? "#4f5a55" : "#d7dcd7", "stroke-width": 1 }));
    grid.append(el("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#4f5a55" }, number(v)));
  }
  grid.append(el("line", { x1: pad.left, x2: width - pad.right, y1: y(target), y2: y(target), stroke: "#b3261e", "stroke-width": 2, "stroke-dasharray": "6 4", class: "target" }));
  const every = Math.max(1, Math.ceil(hands.length / 10));
  hands.forEach((hand, i) => {
    if ((i + 1) % every === 0 || i === hands.length - 1) {
      grid.append(el("text", { x: x(i + 1), y: height - 8, "text-anchor": "middle", "font-size": 11, fill: "#4f5a55" }, hand.number));
    }
  });
  svg.append(grid);

  series.forEach((totals, s) => {
    const points = totals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const line = el("polyline", { points, fill: "none", stroke: COLOURS[s % COLOURS.length], "stroke-width": 3,
      "stroke-linejoin": "round", "stroke-linecap": "round", "data-player": seats[s].player });
    if (DASHES[s]) line.setAttribute("stroke-dasharray", DASHES[s]);
    svg.append(line);
    const last = totals.length - 1;
    svg.append(el("circle", { cx: x(last), cy: y(totals[last]), r: 4, fill: COLOURS[s % COLOURS.length] }));
  });
  return svg;
}

// A colour key as a list: a short line in each player's colour and dash, then the name.
export function legend(seats) {
  const list = document.createElement("ul");
  list.className = "legend";
  seats.forEach((seat, s) => {
    const item = document.createElement("li");
    const swatch = el("svg", { viewBox: "0 0 24 8", width: 24, height: 8, "aria-hidden": "true" });
    const line = el("line", { x1: 1, x2: 23, y1: 4, y2: 4, stroke: COLOURS[s % COLOURS.length], "stroke-width": 3 });
    if (DASHES[s]) line.setAttribute("stroke-dasharray", DASHES[s]);
    swatch.append(line);
    item.append(swatch, ` ${seat.name}`);
    list.append(item);
  });
  return list;
}
