"""Computer players of contract bridge built on :mod:`ddsolver`.

The public face of the package (each name lives in the module given):

- what a seat sees and the player interface: :class:`SeatView`, :func:`seat_view`,
  :class:`Player`, :class:`Claim` (:mod:`ai.players`);
- the computer player: :class:`ComputerPlayer` and its :data:`LEVELS` (:mod:`ai.robot`),
  bidding with :class:`StandardAmerican` (:mod:`ai.bidding`), Monte Carlo card play
  (:mod:`ai.cardplay`) on layouts from :func:`sample_deals` (:mod:`ai.sampling`) within what
  :func:`infer` reads from the auction (:mod:`ai.inference`);
- the game: :func:`play_board` and :class:`BoardResult` (:mod:`ai.game`), a Chicago match
  (:class:`ChicagoMatch`, :mod:`ai.chicago`), the boards of the day and their leaderboard
  (:mod:`ai.daily`), engine-versus-engine matches (:func:`run_match`, :mod:`ai.match`).

Imports point one way inside the package: cli -> web -> protocols -> tui -> match / daily ->
chicago -> game -> robot -> cardplay / bidding -> sampling -> inference / players ->
constraints -> ddsolver (the layers of ``tests/test_imports.py``).
"""

from ai.bidding import StandardAmerican
from ai.chicago import ChicagoMatch
from ai.game import BoardResult, play_board
from ai.inference import infer
from ai.match import run_match
from ai.players import Claim, Player, SeatView, seat_view
from ai.robot import LEVELS, ComputerPlayer
from ai.sampling import sample_deals

__all__ = [
    "LEVELS",
    "BoardResult",
    "ChicagoMatch",
    "Claim",
    "ComputerPlayer",
    "Player",
    "SeatView",
    "StandardAmerican",
    "infer",
    "play_board",
    "run_match",
    "sample_deals",
    "seat_view",
]
