"""The games that ship with the service, one module each.

Every module of this package that defines ``RULESET`` (an object with the
:class:`scoring.rulesets.Ruleset` interface) is a game: :mod:`scoring.rulesets` finds it
without being told, as it finds the games of installed packages (entry point group
``arlington.rulesets``). A new game is a new module here, or a package of its own.
"""
