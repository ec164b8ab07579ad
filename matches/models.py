"""Models for clubs, players, seasons, matches and hands."""
