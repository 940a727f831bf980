"""A club's season as pure values (issue 32; docs/club.md "Club and season"): the finished
games of its players (:class:`ClubGame`), the ratings openskill gives them
(:mod:`.ratings`), the season table, the partnerships and a player's nights
(:mod:`.season`), and the night's balanced draw (:mod:`.draw`).

Pure: no Flask, no database; the store gives :class:`ClubGame` values, the edges say the
facts in words.
"""

from scorer.core.club.draw import DrawError, draw_teams, spread, team_strength
from scorer.core.club.ratings import (
    DEFAULT_MU, DEFAULT_SIGMA, Rating, certainty, rate_game,
)
from scorer.core.club.season import (
    PLAYER_STATS, ClubGame, NightLine, PairRow, PlayerRow, Season, night_of, player_nights, play_season,
    season_from_json, season_to_json,
)

__all__ = [
    "DEFAULT_MU", "DEFAULT_SIGMA", "PLAYER_STATS", "ClubGame", "DrawError", "NightLine", "PairRow", "PlayerRow",
    "Rating", "Season", "certainty", "draw_teams", "night_of", "play_season", "player_nights", "rate_game",
    "season_from_json", "season_to_json", "spread", "team_strength",
]
