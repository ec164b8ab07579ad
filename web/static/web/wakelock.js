// Keep the screen on during a match (Screen Wake Lock), with a toggle the user controls.
// The choice is remembered on this device; the lock is taken again when the page comes back
// into view, since browsers release it whenever the page is hidden.
const KEY = "arlington.keepScreenOn";
let sentinel = null;

export function setupWakeLock(button, { onError } = {}) {
  if (!button || !("wakeLock" in navigator)) return; // unsupported: no button at all
  button.hidden = false;

  const set = (on) => {
    button.setAttribute("aria-pressed", String(on));
    localStorage.setItem(KEY, on ? "on" : "off");
  };

  async function acquire() {
    try {
      sentinel = await navigator.wakeLock.request("screen");
      sentinel.addEventListener("release", () => { sentinel = null; });
      set(true);
    } catch (error) {
      set(false);
      onError?.(error);
    }
  }

  async function release() {
    set(false);
    await sentinel?.release();
    sentinel = null;
  }

  button.addEventListener("click", () => (button.getAttribute("aria-pressed") === "true" ? release() : acquire()));
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && localStorage.getItem(KEY) === "on" && !sentinel) acquire();
  });
  if (localStorage.getItem(KEY) === "on") acquire();
}
