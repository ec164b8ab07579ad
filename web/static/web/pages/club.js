// A club: its matches in progress and finished, its players; writers may start a match.
import { get, getAll, post, showError } from "../api.js";
import { h, pageData } from "../dom.js";
import { sentences, t } from "../i18n.js";
import { matchItem } from "../matchlist.js";
import { canWrite } from "../roles.js";

const root = document.getElementById("club");
const clubId = pageData().club;

async function show() {
  try {
    const club = await get(`clubs/${clubId}/`); // first: an outsider's 404 says it all
    const [matches, players] = await Promise.all([
      getAll(`matches/?club=${clubId}&ordering=-created_at`),
      getAll(`players/?club=${clubId}&ordering=name`),
    ]);
    document.getElementById("club-name").textContent = club.name;
    document.title = `${club.name} · ${document.title.split(" · ").pop()}`;
    document.getElementById("club-role").textContent = t("your_role", { role: t(`role_${club.role}`) });
    document.getElementById("club-actions").hidden = false;
    if (canWrite(club.role)) {
      for (const element of root.querySelectorAll("[data-requires=write]")) element.hidden = false;
    }
    const live = matches.filter((match) => match.status !== "finished");
    const finished = matches.filter((match) => match.status === "finished");
    fill("live-matches", live.map(matchItem), t("no_live_matches"));
    fill("finished-matches", finished.map(matchItem), t("no_finished_matches"));
    fill("players", players.map((player) =>
      h("li", {}, h("a", { href: `/players/${player.id}/` }, h("span", { class: "title" }, player.name)))),
    t("no_players"));
    for (const section of root.querySelectorAll("[data-section]")) section.hidden = false;
    if (club.role === "owner") document.getElementById("invite").hidden = false;
  } catch (error) {
    showError(error, { sentences });
  } finally {
    root.removeAttribute("aria-busy");
  }
}

function fill(id, items, empty) {
  const list = document.getElementById(id);
  list.replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, empty)]));
}

// Owners make an invitation link to send; whoever opens it joins with the chosen role.
async function invite(event) {
  event.preventDefault();
  try {
    const { data } = await post(`clubs/${clubId}/invitations/`, { role: event.target.role.value });
    document.getElementById("invite-url").value = data.url;
    document.getElementById("invite-link").hidden = false;
    document.getElementById("invite-share").hidden = !navigator.share;
    document.getElementById("invite-copied").textContent = "";
  } catch (error) {
    showError(error, { sentences });
  }
}

document.getElementById("invite-form").addEventListener("submit", invite);
document.getElementById("invite-copy").addEventListener("click", async () => {
  const url = document.getElementById("invite-url");
  try {
    await navigator.clipboard.writeText(url.value);
  } catch {
    url.select();
    document.execCommand("copy");
  }
  document.getElementById("invite-copied").textContent = t("copied");
});
document.getElementById("invite-share").addEventListener("click", () =>
  navigator.share({ url: document.getElementById("invite-url").value }).catch(() => {}));

show();
