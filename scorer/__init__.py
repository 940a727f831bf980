"""truco-scorer: a Truco scorekeeper that knows the rules.

The pure core (``scorer.core``: ``variants``, ``match``, ``errors`` and the card helpers) imports
neither Flask nor sqlite3; the application services (``scorer.app``) and the edges
(``scorer.web``, ``scorer.cli``) depend on it.
"""
