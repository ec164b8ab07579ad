// The clubs page: the user's clubs, each with their role.
import { getAll, showError } from "../api.js";
import { h } from "../dom.js";
import { sentences, t } from "../i18n.js";

const list = document.getElementById("club-list");

async function show() {
  try {
    const clubs = await getAll("clubs/");
    list.replaceChildren(
      ...clubs.map((club) =>
        h("li", {},
          h("a", { href: `/clubs/${club.id}/`, dataset: { club: club.id } },
            h("span", { class: "title" }, club.name),
            club.role ? h("span", { class: `badge ${club.role}` }, t(`role_${club.role}`)) : null))),
    );
    if (!clubs.length) list.replaceChildren(h("li", { class: "muted" }, t("no_clubs")));
  } catch (error) {
    list.replaceChildren();
    showError(error, { sentences });
  } finally {
    list.removeAttribute("aria-busy");
  }
}

show();
