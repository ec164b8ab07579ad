// A third-party app written against the generated types (openapi-typescript) and the
// openapi-fetch client. check.sh type-checks it with `tsc --strict`, compiles it and runs it
// (run.mjs) against a server of its own: sign in, a club, players, a match, a hand recorded
// and read back with its ETag, a hand played live event by event to its finish, the live
// stream, the CSV export and the standings. No `any`, no cast, no hand-written type, no raw
// `fetch`: every call goes through the typed client, checked against the schema.
import createClient from "openapi-fetch";
import type { components, paths } from "./api";

type LiveEvent = components["schemas"]["LiveEventRequest"];
type LiveState = components["schemas"]["LiveState"];
type Match = components["schemas"]["Match"];
type HandWithMatch = components["schemas"]["HandWithMatch"];
// What the stream's description says its events carry, by event name.
type StreamData = {
  state: components["schemas"]["LiveState"];
  recorded: components["schemas"]["LiveStreamRecorded"];
  abandoned: components["schemas"]["LiveStreamAbandoned"];
};
// The stream's 200 is text/event-stream: text, read as a stream.
type StreamText =
  paths["/api/v1/matches/{match_pk}/live/stream/"]["get"]["responses"][200]["content"]["text/event-stream"];

export type Played = {
  requests: number;
  match: number;
  hands: number;
  liveNets: number[];
  stream: string;
  standings: number;
  csvLines: number;
};

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`client check failed: ${what}`);
}

export async function playAMatch(baseUrl: string, username: string, password: string): Promise<Played> {
  let requests = 0;
  const api = createClient<paths>({ baseUrl });
  api.use({
    onRequest() {
      requests += 1;
      return undefined;
    },
  });
  const signedIn = await api.POST("/api/v1/auth/tokens/", {
    body: { username, password, name: "typescript client" },
  });
  check(signedIn.data !== undefined, `sign-in answered ${signedIn.response.status}`);
  const headers = { Authorization: `Token ${signedIn.data.token}` };

  const club = await api.POST("/api/v1/clubs/", { body: { name: "TS club" }, headers });
  check(club.data !== undefined, "a club");
  const players: number[] = [];
  for (const name of ["Ann", "Ben", "Cleo"]) {
    const player = await api.POST("/api/v1/players/", { body: { club: club.data.id, name }, headers });
    check(player.data !== undefined, `player ${name}`);
    players.push(player.data.id);
  }
  const started = await api.POST("/api/v1/matches/", { body: { club: club.data.id, players }, headers });
  check(started.data !== undefined, "a match");
  const match: Match = started.data;
  const status: "in_progress" | "finished" = match.status; // required: never undefined
  check(status === "in_progress" && match.seats.every((seat) => seat.total === 0), "a new match");

  // A whole hand, with an Idempotency-Key, then read back with its ETag: 304 while unchanged.
  const [ann, ben, cleo] = players;
  check(ann !== undefined && ben !== undefined && cleo !== undefined, "three players");
  const recorded = await api.POST("/api/v1/matches/{match_pk}/hands/", {
    params: { path: { match_pk: match.id }, header: { "Idempotency-Key": "ts-hand-1" } },
    body: {
      ending: "went_out",
      went_out: ann,
      results: [
        {
          player: ann,
          melds: [["AS", "AH", "AD", "AC"], ["AS", "AH", "AD"], ["KS", "KH", "KD"], ["QS", "QH", "QD"]],
          hand: [],
        },
        { player: ben, melds: [["5D", "6D", "7D"]], hand: ["3C", "4C", "8H", "9H", "10H", "JH", "3D", "4D", "8C", "9C"] },
        { player: cleo, melds: [["5C", "6C", "7C"]], hand: ["3H", "4H", "8S", "9S", "10S", "JS", "3S", "4S", "8D", "9D"] },
      ],
    },
    headers,
  });
  check(recorded.data !== undefined, `hand 1 answered ${recorded.response.status}`);
  check(recorded.data.results.map((result) => result.net).join() === "340,-65,-65", "hand 1's nets");
  const version: number = recorded.data.version; // HandWithMatch.version is required
  // A hand's ETag is its version, then a digest of the answer: "1.5c0a1f7e2b".
  const etag = recorded.response.headers.get("ETag") ?? "";
  check(etag.startsWith(`"${version}.`), `the hand's ETag ${etag}`);
  const read = await api.GET("/api/v1/matches/{match_pk}/hands/{number}/", {
    params: { path: { match_pk: match.id, number: recorded.data.number } },
    headers,
  });
  const readTag = read.response.headers.get("ETag") ?? "";
  check(read.data?.version === version && readTag.startsWith(`"${version}.`), "hand 1 read back");
  // The match answers 304 to its own ETag while no hand has been recorded since.
  const current = await api.GET("/api/v1/matches/{id}/", { params: { path: { id: match.id } }, headers });
  check(current.data?.hands_played === 1, "the match after hand 1");
  const matchTag = current.response.headers.get("ETag") ?? "";
  const unchanged = await api.GET("/api/v1/matches/{id}/", {
    params: { path: { id: match.id }, header: { "If-None-Match": matchTag } },
    headers,
  });
  check(unchanged.response.status === 304, `If-None-Match answered ${unchanged.response.status}`);

  // Hand 2, played live: whose turn it is comes from each state.
  const live = await api.POST("/api/v1/matches/{match_pk}/live/", {
    params: { path: { match_pk: match.id } },
    body: { turned_up: "7H" },
    headers,
  });
  check(live.data !== undefined, `the live start answered ${live.response.status}`);
  let state: LiveState = live.data;
  let ifMatch = live.response.headers.get("ETag") ?? "";
  check(ifMatch.endsWith(`.${state.version}"`), `the live state's ETag ${ifMatch}`);

  const stream = await readStream(api, match.id, headers, state);

  async function send(event: LiveEvent): Promise<LiveState | HandWithMatch> {
    describe(event);
    const answer = await api.POST("/api/v1/matches/{match_pk}/live/events/", {
      params: { path: { match_pk: match.id }, header: { "If-Match": ifMatch } },
      body: event,
      headers,
    });
    check(answer.data !== undefined, `${event.type} answered ${answer.response.status}`);
    ifMatch = answer.response.headers.get("ETag") ?? ifMatch;
    return answer.data;
  }
  async function play(event: LiveEvent): Promise<LiveState> {
    const answer = await send(event);
    check("phase" in answer, `${event.type} answered a state`);
    state = answer;
    return state;
  }
  function turn(): number {
    check(state.turn !== null, "a player's turn");
    return state.turn;
  }

  const first = turn();
  await play({ type: "draw", player: first });
  await play({ type: "discard", player: first, card: "9C" });
  const second = turn();
  await play({ type: "draw", player: second });
  await play({ type: "discard", player: second, card: "8D" });
  const third = turn();
  await play({ type: "take_pile", player: third, meld: ["8D", "8C", "2C=8H"] });
  for (const cards of [["3C", "3D", "3H"], ["4C", "4D", "4H"], ["5C", "5D", "5H"], ["7H", "7D", "7C"]]) {
    await play({ type: "meld", player: third, cards });
  }
  await play({ type: "discard", player: third, card: "9C" });
  check(state.phase === "ended" && state.ending === "went_out" && state.went_out === third, "the hand ended");
  const finished = await send({
    type: "finish",
    held: {
      [String(first)]: ["2D", "4H", "KC", "KD", "KH", "JC", "JD", "JH", "10C", "10D", "10H", "6C", "6D"],
      [String(second)]: ["AC", "AD", "AH", "QC", "QD", "QH", "9D", "9H", "9S", "6H", "6S", "5S", "3S"],
    },
  });
  check("results" in finished && finished.number === 2, "finish recorded hand 2");
  const liveNets = finished.results.map((result) => result.net).sort((a, b) => a - b);
  check(liveNets.join() === "-140,-125,190", `the live hand's nets ${liveNets.join()}`);

  const csv = await api.GET("/api/v1/clubs/{id}/standings/csv/", {
    params: { path: { id: club.data.id } },
    headers,
    parseAs: "text",
  });
  check(csv.data !== undefined, "the CSV export");
  const table = await api.GET("/api/v1/clubs/{id}/standings/", { params: { path: { id: club.data.id } }, headers });
  const rows: components["schemas"]["Standing"][] = table.data ?? [];
  const changed = await api.GET("/api/v1/matches/", {
    params: { query: { updated_after: new Date(0).toISOString() } },
    headers,
  });
  check((changed.data?.count ?? 0) >= 1, "the matches changed since 1970");
  return {
    requests,
    match: match.id,
    hands: finished.match.hands_played,
    liveNets,
    stream,
    standings: rows.length,
    csvLines: csv.data.trim().split("\n").length,
  };
}

// The live stream, by its description: a 200 of text/event-stream whose first `state` event
// carries the current LiveState; without Redis on the server, a 503 with its own error type.
async function readStream(
  api: ReturnType<typeof createClient<paths>>,
  match: number,
  headers: { Authorization: string },
  current: LiveState,
): Promise<string> {
  const stream = await api.GET("/api/v1/matches/{match_pk}/live/stream/", {
    params: { path: { match_pk: match } },
    headers,
    parseAs: "stream",
  });
  if (stream.response.status === 503) {
    check(stream.error !== undefined, "the stream's 503 body");
    const code = stream.error.errors[0]?.code;
    check(code === "live_stream_unavailable", `the stream's 503 code ${code}`);
    check(stream.response.headers.get("Retry-After") !== null, "the stream's Retry-After");
    return `503 ${code}`;
  }
  check(stream.data !== undefined && stream.data !== null, `the stream answered ${stream.response.status}`);
  const reader = stream.data.pipeThrough(new TextDecoderStream()).getReader();
  let text: StreamText = "";
  try {
    while (!text.includes("event: state\n")) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += chunk.value;
    }
    text += (await reader.read()).value ?? "";
  } finally {
    await reader.cancel();
  }
  const frame = text.split("\n\n").find((block) => block.startsWith("event: state\n"));
  check(frame !== undefined, "a state event on the stream");
  const data = frame.split("\n").find((line) => line.startsWith("data: "));
  check(data !== undefined, "the state event's data");
  const sent: StreamData["state"] = JSON.parse(data.slice("data: ".length));
  check(sent.version === current.version && sent.hand === current.hand, "the stream's state is current");
  return `200 state ${sent.hand}.${sent.version}`;
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
