// A club: its matches in progress and finished, its players; writers may start a match.
import { ApiError, clearMessages, get, getAll, post, request, sentenceOf, showError } from "../api.js";
import { byName, h, pageData } from "../dom.js";
import { sentences, t } from "../i18n.js";
import { matchItem } from "../matchlist.js";
import { keepForOffline } from "../offline.js";
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
    // owners link each player to a member's login ("this is me"): that member then enters
    // the player's own hand on their own phone, whatever their role
    const members = club.role === "owner" ? await getAll(`clubs/${clubId}/members/`) : [];
    players.sort(byName);
    fill("players", players.map((player) => h("li", { dataset: { player: player.id } },
      h("a", { href: `/players/${player.id}/` }, h("span", { class: "title" }, player.name)),
      club.role === "owner" ? linkField(player, members) : null)),
    t("no_players"));
    for (const section of root.querySelectorAll("[data-section]")) section.hidden = false;
    if (club.role === "owner") {
      document.getElementById("invite").hidden = false;
      // an invitation may be for a player of the roster who has no login yet
      const choice = document.getElementById("invite-player");
      choice.replaceChildren(choice.options[0], ...players.filter((player) => !player.user)
        .map((player) => h("option", { value: player.id }, player.name)));
    }
    // the matches in progress open offline from now on, entry included
    keepForOffline(live).then(() => { document.getElementById("live-matches").dataset.kept = "true"; });
  } catch (error) {
    showError(error, { sentences });
  } finally {
    root.removeAttribute("aria-busy");
  }
}

// Which member's login is this player's: a choice of the club's members, or nobody.
function linkField(player, members) {
  const id = `login-${player.id}`;
  const status = h("p", { class: "muted link-status", id: `${id}-status`, "aria-live": "polite" });
  const select = h("select", { id, "aria-describedby": `${id}-status`, onchange: async (event) => {
    const user = event.target.value || null;
    try {
      await request(`players/${player.id}/`, { method: "PATCH", body: { user } });
      player.user = user;
      status.textContent = user ? t("linked", { name: player.name, user }) : t("unlinked", { name: player.name });
    } catch (error) {
      event.target.value = player.user ?? "";
      showError(error, { sentences });
    }
  } },
  h("option", { value: "" }, t("no_login")),
  members.map((member) => h("option", { value: member.user, selected: member.user === player.user }, member.user)));
  return h("div", { class: "field link-field" }, h("label", { for: id }, t("login_of", { name: player.name })), select, status);
}

function fill(id, items, empty) {
  const list = document.getElementById(id);
  list.replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, empty)]));
}

// Owners make an invitation link to send; whoever opens it joins with the chosen role.
async function invite(event) {
  event.preventDefault();
  try {
    const player = event.target.player.value ? Number(event.target.player.value) : null;
    const { data } = await post(`clubs/${clubId}/invitations/`, { role: event.target.role.value, player });
    document.getElementById("invite-url").value = data.url;
    // an owner's link, or one for a player, works once (the API's default for them)
    document.getElementById("invite-once").hidden = data.max_uses !== 1;
    document.getElementById("invite-many").hidden = data.max_uses === 1;
    document.getElementById("invite-link").hidden = false;
    document.getElementById("invite-share").hidden = !navigator.share;
    document.getElementById("invite-copied").textContent = "";
  } catch (error) {
    showError(error, { sentences });
  }
}

// Writers add a player to the roster here, as on the Start a match page.
async function addPlayer(event) {
  event.preventDefault();
  clearMessages();
  const form = event.target;
  const slot = form.querySelector('[data-error-for="name"]');
  const input = form.name;
  slot.hidden = true;
  input.removeAttribute("aria-invalid");
  const name = input.value.trim();
  const refuse = (text) => {
    slot.textContent = text;
    slot.hidden = false;
    input.setAttribute("aria-invalid", "true");
  };
  if (!name) return refuse(t("name_required"));
  const button = document.getElementById("add-player");
  button.disabled = true;
  try {
    await post("players/", { club: Number(clubId), name });
    input.value = "";
    await show();
    input.focus();
  } catch (error) {
    const about = error instanceof ApiError ? error.about("name") : [];
    if (about.length) refuse(about.map((item) => sentenceOf(item, sentences)).join(" "));
    showError(error, { sentences });
  } finally {
    button.disabled = false;
  }
}

document.getElementById("player-form").addEventListener("submit", addPlayer);
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
