// A club's seasons as the pages pick them.

// The season under way on `today` ("YYYY-MM-DD"): one whose dates hold today, an open end or
// start counting as holding it. Of several, the latest to start (the API lists seasons newest
// first). Null when no season is under way.
export function currentSeason(seasons, today = new Date().toISOString().slice(0, 10)) {
  return seasons.find((season) =>
    (!season.starts_on || season.starts_on <= today) && (!season.ends_on || today <= season.ends_on)) ?? null;
}
