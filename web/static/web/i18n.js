// The words of the page's language, handed over by the template (web/labels.py).

export const vocabulary = JSON.parse(globalThis.document?.getElementById("vocabulary")?.textContent ?? "{}");

export const sentences = vocabulary.sentences ?? {};

// The page language's plural rule. The Portuguese catalogue is Portugal's, where 0 takes the
// plural ("0 mãos"), as "pt-PT" says; plain "pt" would follow Brazil's ("0 mão").
const language = globalThis.document?.documentElement.lang || "en";
const plurals = new Intl.PluralRules(language === "pt" ? "pt-PT" : language);

// A sentence by key, with "%(name)s" placeholders filled from `params`. A sentence that changes
// with a number comes as its forms ({one, other}): the one for `params.count` is used.
export function t(key, params = {}) {
  let text = sentences[key] ?? key;
  if (typeof text === "object") text = text[plurals.select(Number(params.count))] ?? text.other;
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(params[name] ?? ""));
}

export const kindLabel = (kind) => vocabulary.kinds?.[kind] ?? kind;
export const endingLabel = (ending) => vocabulary.endings?.[ending] ?? ending;
