"""The hosting machinery: what lets one host serve many tables, beneath the views.

``security`` (headers, rate limits, trusted proxies, cross-site posts), ``flood_gate`` (a client
already refused, refused again before Flask), ``poll_shortcut`` (an unchanged poll answered
before Flask), ``board_cache`` (a poll's new board rendered once per table), ``read_cache`` (heavy
reads computed once per version, ``@cached_read``), ``push`` (changes published to nginx's
pub/sub) and ``ops`` (health and metrics). The views use them; they never import a view
(tests/system/test_layers.py). docs/hosting.md says how each is set up and what it measured.
"""
