// A small element builder: h("a", {href: "/x", class: "title"}, "text", child).

export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") element.className = value;
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

// The page's data attributes: <main data-club="3"> → page().club === "3".
export const pageData = () => document.querySelector("[data-page]")?.dataset ?? {};

// Numbers in the page's language (1 000, 1,000, 1.000).
export const number = (value) =>
  value === null || value === undefined ? "–" : new Intl.NumberFormat(document.documentElement.lang).format(value);

// Order by name as the page's language sorts names: "Éloïse" beside "Eve", not after "Zoé".
export const byName = (a, b) =>
  a.name.localeCompare(b.name, document.documentElement.lang, { sensitivity: "base", numeric: true });

// A page whose club or match is not the reader's to see (404): its controls would act on
// nothing, so only the way back and the title stay beside the error.
export function onlyTheWayBack(root) {
  for (const part of root.children) if (!part.matches(".crumbs, h1, .board-top")) part.hidden = true;
  for (const control of root.querySelectorAll(".board-top button")) control.hidden = true;
}
