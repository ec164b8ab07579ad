"""API views of the matches app, one module per resource: declarative viewsets, with every
action delegated to a service. Plumbing they share is in matches/api/http.py and views/base.py."""
