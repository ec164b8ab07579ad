// The clubs page: the user's clubs, each with their role, and a form to start a new one.
import { ApiError, clearMessages, getAll, request, sentenceOf, showError } from "../api.js";
import { h } from "../dom.js";
import { sentences, t } from "../i18n.js";

const list = document.getElementById("club-list");
const form = document.getElementById("club-form");
// one key for this form: a second tap, or a retry after a lost answer, makes no second club
const key = crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;

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

// Start a club: its creator is its owner, and lands on its page.
async function create(event) {
  event.preventDefault();
  clearMessages();
  const slot = form.querySelector('[data-error-for="name"]');
  const input = form.name;
  slot.hidden = true;
  input.removeAttribute("aria-invalid");
  const button = document.getElementById("create-club");
  button.disabled = true;
  try {
    const { data: club } = await request("clubs/", {
      method: "POST", headers: { "Idempotency-Key": key }, body: { name: input.value.trim() },
    });
    location.assign(`/clubs/${club.id}/`);
  } catch (error) {
    button.disabled = false;
    const about = error instanceof ApiError ? error.about("name") : [];
    if (about.length) {
      slot.textContent = about.map((item) => sentenceOf(item, sentences)).join(" ");
      slot.hidden = false;
      input.setAttribute("aria-invalid", "true");
    }
    showError(error, { sentences });
  }
}

form.addEventListener("submit", create);
show();
