// The words of the page's language, handed over by the template (web/labels.py).

export const vocabulary = JSON.parse(globalThis.document?.getElementById("vocabulary")?.textContent ?? "{}");

export const sentences = vocabulary.sentences ?? {};

// A sentence by key, with "%(name)s" placeholders filled from `params`.
export function t(key, params = {}) {
  const text = sentences[key] ?? key;
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(params[name] ?? ""));
}

export const kindLabel = (kind) => vocabulary.kinds?.[kind] ?? kind;
export const endingLabel = (ending) => vocabulary.endings?.[ending] ?? ending;
