// A player's rating after each rated match, drawn as inline SVG like the race chart.
import { number } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";

function el(tag, attributes = {}, text) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

// steps: [{rating_before, rating}] oldest first. The line starts at the first rating before.
export function ratingChart(steps, { title, id }) {
  const width = 360;
  const height = 180;
  const pad = { left: 48, right: 12, top: 12, bottom: 24 };
  const values = [steps[0].rating_before, ...steps.map((step) => step.rating)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(50, high - low);
  const top = high + span * 0.1;
  const bottom = low - span * 0.1;
  const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / Math.max(1, values.length - 1);
  const y = (v) => pad.top + ((top - v) * (height - pad.top - pad.bottom)) / (top - bottom);
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "rating", "aria-labelledby": id });
  svg.append(el("title", { id }, title));
  const grid = el("g", { class: "grid" });
  for (const v of [low, Math.round((low + high) / 2), high]) {
    grid.append(el("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), stroke: "#d7dcd7", "stroke-width": 1 }));
    grid.append(el("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#4f5a55" }, number(v)));
  }
  svg.append(grid);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  svg.append(el("polyline", { points, fill: "none", stroke: "#1f5fbf", "stroke-width": 3, "stroke-linejoin": "round", "stroke-linecap": "round" }));
  values.forEach((v, i) => svg.append(el("circle", { cx: x(i), cy: y(v), r: 3, fill: "#1f5fbf" })));
  return svg;
}
