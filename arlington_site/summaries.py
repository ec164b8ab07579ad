"""A one-line summary for each operation of the schema, by operation id.

Generated clients name and document their methods from these, and the docs pages list them.
An operation whose view sets a summary with ``extend_schema`` keeps its own; the schema class
takes the others from here, and a test fails on any operation with neither, and on any entry
here that names no operation.
"""

SUMMARIES: dict[str, str] = {
    # auth
    "auth_logout_create": "Sign out: revoke the token this request is made with.",
    "auth_token_create": "Legacy: exchange a username and password for a one-per-user token.",
    "auth_tokens_list": "List your device tokens.",
    "auth_tokens_create": "Sign in for a device token.",
    "auth_tokens_retrieve": "Read one of your device tokens.",
    "auth_tokens_destroy": "Revoke one of your device tokens (that device is signed out).",
    # clubs
    "clubs_list": "List the clubs you belong to.",
    "clubs_create": "Create a club; you become its owner.",
    "clubs_retrieve": "Read a club.",
    "clubs_update": "Replace a club's settings (owners).",
    "clubs_partial_update": "Change some of a club's settings (owners).",
    "clubs_invitations_list": "List a club's invitations (owners).",
    "clubs_invitations_create": "Create an invitation to share (owners).",
    "clubs_invitations_retrieve": "Read one of a club's invitations (owners).",
    "clubs_invitations_destroy": "Revoke an invitation (owners).",
    "clubs_members_list": "List a club's members and their roles.",
    "clubs_members_create": "Invite a user by name, or change a member's role (owners).",
    "clubs_members_destroy": "Remove a member (owners); a club keeps at least one owner.",
    "clubs_public_links_list": "List a club's public result links (owners).",
    "clubs_public_links_create": "Make a public result link (owners).",
    "clubs_public_links_destroy": "Revoke a public result link (owners).",
    "clubs_ratings_list": "A club's ratings in one ruleset, best first.",
    "clubs_standings_retrieve": "A club's standings as JSON: all-time, or one season's.",
    "clubs_standings_csv_retrieve": "A club's standings as CSV text.",
    # invitations
    "invitations_list": "List the personal invitations addressed to you.",
    "invitations_retrieve": "Read what an invitation offers: the club and the role.",
    "invitations_destroy": "Decline an invitation, or revoke it (the club's owners).",
    "invitations_accept_create": "Accept an invitation: join the club with its role.",
    "invitations_signup_create": "Make an account with an invitation and join the club.",
    # matches
    "matches_list": "List the matches of your clubs.",
    "matches_create": "Start a match (scorekeepers and owners).",
    "matches_retrieve": "Read a match: seats, totals, status and who deals next.",
    "matches_hands_list": "List a match's hands.",
    "matches_hands_create": "Record the match's next hand.",
    "matches_hands_retrieve": "Read one hand.",
    "matches_hands_update": "Correct a hand (every correction is kept).",
    "matches_hands_destroy": "Void the match's last hand.",
    "matches_hands_confirmations_create": "Confirm a hand as it stands.",
    "matches_hands_draft_retrieve": "Read the draft of the next hand that phones are entering.",
    "matches_hands_draft_destroy": "Throw away the draft of the next hand, every part of it.",
    "matches_hands_draft_ending_update": "Write the ending of the next hand's draft.",
    "matches_hands_draft_players_update": "Write one player's cards in the next hand's draft.",
    "matches_hands_draft_players_contest_update": "Offer another version of a player's cards "
    "beside their part, for a choice.",
    "matches_hands_draft_players_contest_destroy": "Withdraw the version offered beside a "
    "player's part: the part as written is kept.",
    "matches_hands_live_retrieve": "Read the event log of a hand that was played live.",
    "matches_hands_revisions_list": "List every version of a hand, oldest first.",
    "matches_live_retrieve": "Read the state of the hand being played live.",
    "matches_live_create": "Start the match's next hand live.",
    "matches_live_destroy": "Abandon the hand being played live.",
    "matches_live_events_create": "Add one event to the live hand (finish records it).",
    "matches_live_events_last_destroy": "Undo the live hand's last event.",
    "matches_live_stream_retrieve": "Watch the live hand: a stream of Server-Sent Events.",
    "matches_live_stream_ticket_create": "Get a minute's URL for the live stream.",
    # players
    "players_list": "List the players on your clubs' rosters.",
    "players_create": "Add a player to a club's roster.",
    "players_retrieve": "Read a player.",
    "players_update": "Replace a player's details.",
    "players_partial_update": "Change some of a player's details.",
    "players_matches_list": "List a player's matches, newest first.",
    "players_ratings_list": "A player's rating history in one ruleset.",
    # seasons
    "seasons_list": "List the seasons of your clubs.",
    "seasons_create": "Create a season (owners).",
    "seasons_retrieve": "Read a season.",
    "seasons_update": "Replace a season's details (owners).",
    "seasons_partial_update": "Change some of a season's details (owners).",
    "seasons_standings_retrieve": "A season's standings as JSON.",
    "seasons_standings_csv_retrieve": "A season's standings as CSV text.",
    # tournaments
    "tournaments_list": "List the tournaments of your clubs.",
    "tournaments_create": "Start a tournament (owners and scorekeepers).",
    "tournaments_retrieve": "Read a tournament: its entrants and rounds.",
    "tournaments_board_retrieve": "The director's board: everything a room display shows.",
    "tournaments_leaderboard_list": "A tournament's leaderboard.",
    "tournaments_rounds_list": "List a tournament's rounds with their tables.",
    "tournaments_rounds_create": "Draw the tournament's next round (directors).",
    "tournaments_rounds_retrieve": "Read one round of a tournament with its tables.",
    "tournaments_rounds_destroy": "Undo the last round while none of its hands is recorded.",
    "tournaments_entrants_list": "List a tournament's entrants, withdrawn ones included.",
    "tournaments_entrants_create": "Enter a player between rounds (directors).",
    "tournaments_entrants_destroy": "Withdraw an entrant between rounds (directors).",
    "tournaments_leaderboard_csv_retrieve": "A tournament's leaderboard as a CSV download.",
}
