// Who may do what in a club, as the pages ask it (the API decides; this only picks what to show).

export const WRITERS = new Set(["owner", "scorekeeper"]);

// Owners and scorekeepers record, correct and void hands.
export const canWrite = (role) => WRITERS.has(role);
