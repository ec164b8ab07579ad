"""Business actions of the matches app, one module per resource: each runs in one transaction
and leaves nothing half-done.

The engine (`scoring`) decides every rule; these functions lock, ask it, and save.
"""
