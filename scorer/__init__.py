"""truco-scorer: a Truco scorekeeper that knows the rules.

The pure core (``variants``, ``match``, ``errors`` and the card helpers) imports
neither Flask nor sqlite3; the edges (store, web views, CLI) depend on it.
"""
