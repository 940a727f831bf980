"""The pure core: rules as data (the variant registry), the match engine, cards, seats,
series, tournaments and the calculators. Imports neither Flask, Werkzeug nor sqlite3
(``tests/system/test_layers.py``)."""
