// A third-party app written against the generated types (openapi-typescript) and the
// openapi-fetch client: sign in, a club, players, a match, a hand recorded and read back with
// its ETag, a live hand event by event, the stream's description, the CSV export. No `any`,
// no cast, no hand-written type: `tsc --strict` checks every call against the schema.
import createClient from "openapi-fetch";
import type { components, paths } from "./api";

type LiveEvent = components["schemas"]["LiveEventRequest"];
type Match = components["schemas"]["Match"];

export async function playAMatch(baseUrl: string, username: string, password: string): Promise<number> {
  const api = createClient<paths>({ baseUrl });
  const signedIn = await api.POST("/api/v1/auth/tokens/", {
    body: { username, password, name: "typescript client" },
  });
  if (!signedIn.data) throw new Error("sign-in refused");
  const headers = { Authorization: `Token ${signedIn.data.token}` };

  const club = await api.POST("/api/v1/clubs/", { body: { name: "TS club" }, headers });
  if (!club.data) throw new Error("no club");
  const players: number[] = [];
  for (const name of ["Ann", "Ben", "Cleo"]) {
    const player = await api.POST("/api/v1/players/", { body: { club: club.data.id, name }, headers });
    if (!player.data) throw new Error("no player");
    players.push(player.data.id);
  }
  const started = await api.POST("/api/v1/matches/", {
    body: { club: club.data.id, players },
    headers,
  });
  if (!started.data) throw new Error("no match");
  const match: Match = started.data;
  const status: "in_progress" | "finished" = match.status; // required: never undefined
  const totals: number[] = match.seats.map((seat) => seat.total);

  const recorded = await api.POST("/api/v1/matches/{match_pk}/hands/", {
    params: { path: { match_pk: match.id } },
    body: {
      ending: "went_out",
      went_out: players[0],
      results: players.map((player) => ({ player, melds: [], hand: [] })),
    },
    headers,
  });
  if (recorded.data) {
    const version: number = recorded.data.version; // HandWithMatch.version is required
    const etag = recorded.response.headers.get("ETag") ?? `"${version}"`;
    await api.GET("/api/v1/matches/{match_pk}/hands/{number}/", {
      params: { path: { match_pk: match.id, number: recorded.data.number } },
      headers: { ...headers, "If-None-Match": etag },
    });
  }

  const live = await api.POST("/api/v1/matches/{match_pk}/live/", {
    params: { path: { match_pk: match.id } },
    body: { turned_up: "7H" },
    headers,
  });
  if (live.data) {
    const turn = live.data.turn ?? players[0]; // null once the hand has ended
    const events: LiveEvent[] = [
      { type: "draw", player: turn },
      { type: "discard", player: turn, card: "9C" },
      { type: "finish", held: { [String(players[1])]: ["2D"] } },
    ];
    for (const event of events) {
      describe(event);
      await api.POST("/api/v1/matches/{match_pk}/live/events/", {
        params: { path: { match_pk: match.id }, header: { "If-Match": '"1.1"' } },
        body: event,
        headers,
      });
    }
  }

  const stream = await api.GET("/api/v1/matches/{match_pk}/live/stream/", {
    params: { path: { match_pk: match.id } },
    headers,
    parseAs: "stream",
  });
  stream.response.body?.cancel();

  const csv = await api.GET("/api/v1/clubs/{id}/standings/csv/", {
    params: { path: { id: club.data.id } },
    headers,
    parseAs: "text",
  });
  const table = await api.GET("/api/v1/clubs/{id}/standings/", {
    params: { path: { id: club.data.id } },
    headers,
  });
  const rows: components["schemas"]["Standing"][] = table.data ?? [];
  const changed = await api.GET("/api/v1/matches/", {
    params: { query: { updated_after: new Date(0).toISOString() } },
    headers,
  });
  return totals.length + rows.length + (csv.data?.length ?? 0) + (changed.data?.count ?? 0) + status.length;
}

// The discriminator narrows each event by its type: every case is known, none is left over.
function describe(event: LiveEvent): string {
  switch (event.type) {
    case "draw":
      return `draw by ${event.player}`;
    case "take_pile":
      return `${event.player} takes the pile with ${event.meld.join(" ")}`;
    case "take_discard":
      return `${event.player} takes the top discard`;
    case "meld":
      return `${event.player} melds ${event.cards.join(" ")}`;
    case "extend":
      return `${event.player} extends meld ${event.meld}`;
    case "discard":
      return `${event.player} discards ${event.card}`;
    case "pass":
      return `${event.player} passes`;
    case "finish":
      return `finish: ${Object.keys(event.held).length} hands held`;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
