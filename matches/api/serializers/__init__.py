"""Serializers of the matches API, one module per resource: input ones read shape and notation,
output ones present rows.

None of them decides a rule: the services and the engine do.
"""
