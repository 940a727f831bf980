"""Application services and storage: ``match_service`` and ``tournament_service`` (what a
view or a command does, in one call) over ``store`` (all SQL, the
tournaments' in ``store.tournaments``).
No Flask here."""
