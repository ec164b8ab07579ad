// Join a club from an invitation link (/join/<code>): see what it offers, then accept it when
// signed in, or create an account with it and sign in. Everything goes through the API's
// invitations endpoints; the browser's session comes from the ordinary sign-in form.
import { ApiError, get, post, request, sentenceOf, showError, clearMessages } from "../api.js";
import { pageData } from "../dom.js";
import { sentences, t } from "../i18n.js";

const root = document.getElementById("join");
const { code, signedIn } = pageData();
const path = `invitations/${encodeURIComponent(code)}/`;

async function show() {
  try {
    const invitation = await get(path);
    const invited = t(`invited_${invitation.role}`, { club: invitation.club });
    document.getElementById("invitation").textContent = invitation.player
      ? `${invited} ${t("invited_as_player", { name: invitation.player })}` : invited;
    document.getElementById(signedIn === "true" ? "accept" : "newcomer").hidden = false;
  } catch (error) {
    document.getElementById("invitation").textContent = "";
    showError(error, { sentences });
    document.getElementById("link-unusable").hidden = false;
  } finally {
    root.removeAttribute("aria-busy");
  }
}

async function accept() {
  clearMessages();
  try {
    const { data } = await post(`${path}accept/`);
    location.assign(`/clubs/${data.club}/`);
  } catch (error) {
    showError(error, { sentences });
  }
}

function fieldErrors(error) {
  for (const slot of root.querySelectorAll("[data-error-for]")) {
    slot.hidden = true;
    slot.textContent = "";
  }
  if (!(error instanceof ApiError)) return;
  for (const item of error.errors) {
    const slot = item.attr && root.querySelector(`[data-error-for="${item.attr}"]`);
    if (slot) {
      const detail = sentenceOf(item, sentences);
      slot.hidden = false;
      slot.textContent = slot.textContent ? `${slot.textContent} ${detail}` : detail;
    }
  }
}

async function signUp(event) {
  event.preventDefault();
  clearMessages();
  const form = event.target;
  const username = form.username.value.trim();
  const password = form.password.value;
  try {
    const { data: issued } = await post(`${path}signup/`, { username, password });
    // The new account belongs to this club only: its one club is where the person lands.
    const auth = { headers: { Authorization: `Token ${issued.token}` } };
    const { data: clubs } = await request("clubs/", auth);
    // The browser works with a session, not a device token: the token is revoked at once.
    await request("auth/logout/", { ...auth, method: "POST" }).catch(() => {});
    const session = document.getElementById("session-sign-in");
    session.username.value = username;
    session.password.value = password;
    session.next.value = clubs.results?.length ? `/clubs/${clubs.results[0].id}/` : "/";
    session.submit();
  } catch (error) {
    fieldErrors(error);
    showError(error, { sentences });
  }
}

document.getElementById("accept-button")?.addEventListener("click", accept);
document.getElementById("signup-form")?.addEventListener("submit", signUp);
show();
