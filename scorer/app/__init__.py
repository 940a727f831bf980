"""Application services and storage: ``match_service`` and ``tournament_service`` (what a
view or a command does, in one call) over ``store`` and ``tournament_store`` (all SQL).
No Flask here."""
