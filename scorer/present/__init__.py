"""The presentation layer the edges share: the core's facts said in words.

The web (pages, the JSON API, the CSV log) and the command line (``truco replay``) import
it; the core never does (``tests/system/test_layers.py``). :mod:`.log_words` says the match log.
"""
