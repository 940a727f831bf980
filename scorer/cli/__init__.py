"""The ``truco`` command (``main.cli``) and its subcommands. Kept empty so that importing a
card command (``cards_cli``, ``replay_cli``) pulls in neither the database nor the web app."""
