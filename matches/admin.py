"""Admin registrations for the matches app."""
