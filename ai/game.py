"""One board as people play it: deal -> auction -> play (claims included) -> result.

:func:`play_board` is the only code of :mod:`ai` that holds a :class:`~ddsolver.deal.Deal`
while players decide.  It asks each :class:`~ai.players.Player` for its calls and cards,
giving it a :class:`~ai.players.SeatView` built from that seat's own cards and what the
table has shown (WBF Laws 2017: dummy is faced after the opening lead, Law 41; declarer
plays dummy's cards, Law 45), checks every call and card against the rules, and scores the
result (duplicate scoring, the spec's table; :func:`ddsolver.scoring.ns_score`).

The table's rules beyond the Laws (``docs/game.md``, "The product around the rules"):

* **The human plays both hands.**  With ``human=Seat.SOUTH`` the South player plays
  North's cards too whenever North-South win the contract, whoever of the two is declarer.
  When North declares, South's player is asked for every North-South card with *declarer's*
  view: a :class:`~ai.players.SeatView` whose seat is North and whose dummy is South (what
  the human sees at the table: North's cards as declarer, South's own as dummy).  The
  computer at North is then never asked for a card.  Computer players always receive their
  own seat's view only.
* **Passed out.**  Four passes end the board with no play and a score of 0; a Chicago
  match (:mod:`ai.chicago`) deals again with the same dealer.
* **Claims** (WBF Law 68).  A player asked for a card may return a
  :class:`~ai.players.Claim` of ``n`` of the remaining tricks instead.  The claim is
  accepted when the claimer's side takes at least ``n`` of them against every defence with
  all four hands known (double dummy on the real deal, :func:`ddsolver.solve_best`); the
  board then ends with the claimed tricks.  Otherwise the claim is refused, the table says
  so (an observer event) and the same player is asked for a card again; a second claim at
  the same turn is an error of the player.

:meth:`BoardResult.to_pbn` writes a board as PBN 2.1 export format; :meth:`BoardResult.
to_dict` / :meth:`BoardResult.from_dict` save and check a board for saved matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Tuple

from ai.players import SCORINGS, Claim, Player, SeatView, seat_view
from ddsolver import PBNGame, dumps_pbn
from ddsolver.auction import Auction, Call
from ddsolver.cards import Card
from ddsolver.deal import Deal
from ddsolver.errors import BridgeError, IllegalCallError, IllegalCardError, InvalidDealError
from ddsolver.play import Position, trick_winner
from ddsolver.scoring import Contract, ns_score, result_str
from ddsolver.table import Seat, Vulnerability

__all__ = ["BoardResult", "Claim", "InvalidRecordError", "Progress", "TableEvent",
           "play_board", "view_of"]


class InvalidRecordError(BridgeError):
    """A saved board (a dict from :meth:`BoardResult.to_dict` or :meth:`Progress.to_dict`)
    is damaged or breaks the rules: a missing field, an unreadable deal, call or card, an
    illegal auction or play, a result that does not match its play, a wrong score."""


# --------------------------------------------------------------------------------------
# Progress and events
# --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Progress:
    """What has happened at the table so far: the calls (the dealer's first) and the cards
    played, ``(seat, card)`` in order (dummy's cards under dummy's seat).  Given to
    :func:`play_board` it resumes a board where it stopped."""

    calls: Tuple[Call, ...] = ()
    play: Tuple[Tuple[Seat, Card], ...] = ()

    def to_dict(self) -> dict:
        """JSON-ready form: ``{"calls": ["1NT", ...], "play": [["E", "S5"], ...]}``."""
        return {"calls": [str(c) for c in self.calls],
                "play": [[s.letter, str(c)] for s, c in self.play]}

    @classmethod
    def from_dict(cls, data) -> "Progress":
        """Read :meth:`to_dict`'s form (legality is checked by :func:`play_board`).

        :raises InvalidRecordError: for a missing field or an unreadable call, seat or
            card.
        """
        if not isinstance(data, dict):
            raise InvalidRecordError(f"a board in progress must be an object, got "
                                     f"{type(data).__name__}")
        try:
            calls = tuple(Call.from_str(c) for c in data["calls"])
            play = tuple((Seat.from_str(s), Card.from_str(c)) for s, c in data["play"])
        except KeyError as exc:
            raise InvalidRecordError(f"a board in progress lacks {exc}") from None
        except (TypeError, ValueError, AttributeError) as exc:   # a number for a seat...
            raise InvalidRecordError(f"a board in progress is unreadable: {exc}") from None
        return cls(calls, play)


@dataclass(frozen=True)
class TableEvent:
    """Something that happened at the table, as every player saw it (public information
    only: calls with their explanations, cards played, claims).  :func:`play_board` gives
    one to its ``observer`` after each call and card and on each claim.

    :ivar kind: ``"call"``, ``"card"``, ``"claim"`` (accepted: the board ends) or
        ``"claim_refused"`` (play goes on).
    :ivar seat: the seat that called, whose card was played, or that claimed (the seat
        whose turn it was; declarer claims at dummy's turn as declarer).
    :ivar call: the call (``"call"``), with its :attr:`explanation` from the system.
    :ivar card: the card (``"card"``); :attr:`trick_winner` is set when it completed a
        trick.
    :ivar tricks: the tricks claimed (``"claim"``, ``"claim_refused"``).
    :ivar progress: the calls and cards so far, this event's included.
    """

    kind: str
    seat: Seat
    progress: Progress
    call: Optional[Call] = None
    explanation: object = None
    card: Optional[Card] = None
    trick_winner: Optional[Seat] = None
    tricks: Optional[int] = None


# --------------------------------------------------------------------------------------
# The result
# --------------------------------------------------------------------------------------

_PBN_TEXT = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H",
                           "♢": "D", "♧": "C", "–": "-", "—": "-", "‘": "'", "’": "'",
                           "“": "'", "”": "'", "…": "...", "\n": " ", "\r": " "})


def pbn_note_text(text: str) -> str:
    """An explanation as a PBN 2.1 note text: suit symbols become the suit letters
    ``S H D C`` and every other character outside ISO 8859-1 (PBN's character set, PBN 2.1
    section 2.2) becomes ``?``."""
    text = str(text).translate(_PBN_TEXT)
    return text.encode("latin-1", errors="replace").decode("latin-1")


@dataclass(frozen=True)
class BoardResult:
    """A finished board.

    :ivar deal: the deal (four 13-card hands).
    :ivar dealer: the dealer.
    :ivar vulnerability: the vulnerability.
    :ivar scoring: ``"IMP"`` or ``"MP"``.
    :ivar calls: the auction's calls, the dealer's first.
    :ivar explanations: one explanation per call (the bidding system's
        :class:`~ai.bidding.Explanation`), or ``None``.
    :ivar contract: the final contract with its declarer, ``None`` when passed out.
    :ivar declarer: declarer's seat, or ``None``.
    :ivar play: every card played, ``(seat, card)`` in order (dummy's cards under dummy's
        seat); fewer than 52 after a claim.
    :ivar tricks: tricks won by declarer's side in all (claimed tricks included; 0 when
        passed out).
    :ivar score: the duplicate score from North-South's point of view (points; negative
        when East-West gain).
    :ivar claim: ``(seat, n)`` when the board ended by an accepted claim of ``n`` of the
        remaining tricks by ``seat``'s side, else ``None``.
    """

    deal: Deal
    dealer: Seat
    vulnerability: Vulnerability
    scoring: str
    calls: Tuple[Call, ...]
    explanations: Optional[Tuple[object, ...]]
    contract: Optional[Contract]
    declarer: Optional[Seat]
    play: Tuple[Tuple[Seat, Card], ...]
    tricks: int
    score: int
    claim: Optional[Tuple[Seat, int]] = None

    @property
    def auction(self) -> Auction:
        """The auction, as a new :class:`~ddsolver.auction.Auction`."""
        return Auction(self.dealer, self.calls)

    @property
    def passed_out(self) -> bool:
        """Whether all four players passed."""
        return self.contract is None

    @property
    def dummy(self) -> Optional[Seat]:
        """Dummy's seat, or ``None`` when passed out."""
        return None if self.declarer is None else self.declarer.partner

    @property
    def result_text(self) -> str:
        """The short result, ``"4SN+1"``, ``"3NTXS-2"``, ``"4HE="`` or ``"Pass"``."""
        return result_str(self.contract, self.tricks)

    # -- PBN -----------------------------------------------------------------------------
    def to_pbn_game(self, *, board: Optional[int] = None, event: str = "", site: str = "",
                    date: str = "", players: Optional[Mapping] = None,
                    scoring: Optional[str] = None, score: Optional[int] = None) -> PBNGame:
        """This board as a :class:`ddsolver.PBNGame` (PBN 2.1).

        Tags: the Mandatory Tag Set in order (section 3.4; ``Contract`` ``"Pass"`` and
        empty ``Declarer``/``Result`` when passed out), the ``Auction`` section from the
        dealer with a note reference ``=n=`` after every explained call and its ``[Note
        "n:text"]`` tags (section 3.5.2; equal texts share a number), the ``Play`` section
        (section 3.6; one line per trick in columns from the opening leader, ended by
        ``*`` when a claim ended the play) and ``Score`` (``"NS 620"``: North-South's
        points, section 4.4 style).

        :param board: the board number (``Board`` tag), or ``None`` for an empty tag.
        :param date: ``"YYYY.MM.DD"`` (PBN's date form) or empty.
        :param players: ``{seat: name}`` for the player tags.
        :param scoring: the ``Scoring`` tag (default this result's ``"IMP"``/``"MP"``).
        :param score: the ``Score`` tag's North-South points (default :attr:`score`; a
            Chicago match gives the board's Chicago points).
        :raises PBNError: for a tag value with a line break.
        """
        names = {}
        if players:
            names = {Seat.coerce(s): str(n) for s, n in players.items()}
        game = PBNGame.new(self.deal, board=board, dealer=self.dealer,
                           vulnerability=self.vulnerability, event=event, site=site,
                           date=date, scoring=self.scoring if scoring is None else scoring,
                           players=names)
        if self.contract is None:
            game.set_tag("Contract", "Pass")
        else:
            game.set_tag("Declarer", self.declarer.letter)
            game.set_tag("Contract", str(self.contract.with_declarer(None)))
            game.set_tag("Result", str(self.tricks))
        numbers: dict = {}
        tokens = []
        for i, call in enumerate(self.calls):
            token = str(call)
            if self.explanations is not None and self.explanations[i] is not None:
                text = pbn_note_text(getattr(self.explanations[i], "text",
                                             self.explanations[i]))
                n = numbers.setdefault(text, len(numbers) + 1)
                token += f" ={n}="
            tokens.append(token)
        lines = [" ".join(tokens[i:i + 4]) for i in range(0, len(tokens), 4)]
        game.set_tag("Auction", self.dealer.letter, lines)
        game.set_notes("Auction", {n: text for text, n in numbers.items()})
        if self.contract is not None:
            game.set_play([c for _, c in self.play], leader=self.declarer.lho,
                          trump=self.contract.strain)
        points = self.score if score is None else int(score)
        game.set_tag("Score", f"NS {points}")
        return game

    def to_pbn(self, *, newline: str = "\r\n", **tags) -> str:
        """This board as a PBN 2.1 file in export format (``% PBN 2.1`` and ``% EXPORT``
        lines, CRLF line ends by default): see :meth:`to_pbn_game` for the tags and
        ``tags`` (board, event, site, date, players, scoring, score).
        :func:`ddsolver.read_pbn` reads it back to the same deal, auction (with the
        explanations as note texts, see :func:`pbn_note_text`), play, result and score.

        :raises PBNError: as :meth:`to_pbn_game`; :raises ValueError: for a bad ``newline``.
        """
        return dumps_pbn(self.to_pbn_game(**tags), newline=newline)

    # -- saving ---------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """JSON-ready form (explanations are left out: :meth:`from_dict` asks the bidding
        system again)."""
        return {
            "deal": self.deal.to_pbn(),
            "dealer": self.dealer.letter,
            "vulnerability": self.vulnerability.pbn,
            "scoring": self.scoring,
            "calls": [str(c) for c in self.calls],
            "play": [[s.letter, str(c)] for s, c in self.play],
            "tricks": self.tricks,
            "score": self.score,
            "claim": None if self.claim is None else [self.claim[0].letter, self.claim[1]],
        }

    @classmethod
    def from_dict(cls, data, system=None) -> "BoardResult":
        """A board from :meth:`to_dict`'s form, checked: the deal complete, the auction
        legal and finished, the play legal card by card, the tricks those of the play (or
        of its claim), the score that of the contract and tricks.

        :param system: the bidding system that explains the calls (default
            :class:`ai.bidding.StandardAmerican`).
        :raises InvalidRecordError: for anything missing, unreadable or inconsistent.
        """
        if not isinstance(data, dict):
            raise InvalidRecordError(f"a board must be an object, got {type(data).__name__}")
        try:
            deal = Deal.from_pbn(data["deal"])
            if not deal.is_complete():
                raise InvalidRecordError(f"the deal {data['deal']!r} is not complete")
            dealer = Seat.from_str(data["dealer"])
            vul = Vulnerability.from_str(data["vulnerability"])
            scoring = data["scoring"]
            if scoring not in SCORINGS:
                raise InvalidRecordError(f"unknown scoring {scoring!r}")
            calls = tuple(Call.from_str(c) for c in data["calls"])
            play = tuple((Seat.from_str(s), Card.from_str(c)) for s, c in data["play"])
            tricks, score, claim = data["tricks"], data["score"], data["claim"]
            if claim is not None:
                claim = (Seat.from_str(claim[0]), claim[1])
        except KeyError as exc:
            raise InvalidRecordError(f"a saved board lacks {exc}") from None
        except InvalidRecordError:
            raise
        except (TypeError, ValueError, IndexError, AttributeError) as exc:
            # AttributeError: a number or a list where a seat, call or card is read
            raise InvalidRecordError(f"a saved board is unreadable: {exc}") from None
        for name, value in (("tricks", tricks), ("score", score)) + (
                (("claimed tricks", claim[1]),) if claim else ()):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidRecordError(f"{name} must be an integer, got {value!r}")
        try:
            auction = Auction(dealer, calls)
        except BridgeError as exc:
            raise InvalidRecordError(f"the saved auction is illegal: {exc}") from None
        if not auction.is_finished:
            raise InvalidRecordError(f"the saved auction {auction} is not finished")
        if system is None:
            from ai.bidding import StandardAmerican
            system = StandardAmerican()
        explanations = tuple(system.explain_all(auction))
        contract = auction.contract
        if contract is None:
            if play or tricks or score or claim:
                raise InvalidRecordError("a passed-out board has no play, tricks or score")
            return cls(deal, dealer, vul, scoring, calls, explanations, None, None, (), 0, 0)
        declarer = auction.declarer
        pos = Position(deal, trump=contract.strain, leader=declarer.lho)
        for i, (seat, card) in enumerate(play):
            try:
                pos.play(card, seat=seat)
            except BridgeError as exc:
                raise InvalidRecordError(f"card {i + 1} of the saved play ({seat.letter} "
                                         f"{card}) is illegal: {exc}") from None
        won = pos.tricks_won[declarer.side]
        if claim is None:
            if len(play) != 52:
                raise InvalidRecordError(f"the saved play has {len(play)} cards of 52 and "
                                         f"no claim")
            expected = won
        else:
            left = 13 - len(play) // 4
            if not 0 <= claim[1] <= left:
                raise InvalidRecordError(f"a claim of {claim[1]} tricks with {left} left")
            mine = claim[0].side == declarer.side
            expected = won + (claim[1] if mine else left - claim[1])
        if tricks != expected:
            raise InvalidRecordError(f"the saved result says {tricks} tricks; the play "
                                     f"gives {expected}")
        if score != ns_score(contract, tricks, vul):
            raise InvalidRecordError(f"the saved score {score} is not the score of "
                                     f"{result_str(contract, tricks)} ({vul.pbn} vulnerable)")
        return cls(deal, dealer, vul, scoring, calls, explanations, contract, declarer,
                   play, tricks, score, claim)


# --------------------------------------------------------------------------------------
# The board loop
# --------------------------------------------------------------------------------------

def view_of(deal: Deal, seat: Seat, *, dealer: Seat, vulnerability: Vulnerability,
            calls=(), explanations=None, played=(), scoring: str = "IMP") -> SeatView:
    """The view of ``seat`` at this point of the board, built from ``seat``'s own hand and
    (once the opening lead is faced) dummy's, nothing else of ``deal``.

    :raises InvalidViewError: as :func:`ai.players.seat_view`.
    """
    auction = Auction(dealer, calls)
    dummy_hand = None
    if played and auction.declarer is not None:
        dummy_hand = deal[auction.declarer.partner]
    return seat_view(seat, deal[seat], dealer=dealer, vulnerability=vulnerability,
                     auction=auction, explanations=explanations, played=played,
                     dummy_hand=dummy_hand, scoring=scoring)


def _check_players(players: Mapping) -> dict:
    try:
        table = {Seat.coerce(s): p for s, p in players.items()}
    except AttributeError:
        raise TypeError("players must map each seat to a Player") from None
    missing = [s.name for s in Seat if s not in table]
    if missing:
        raise ValueError(f"no player for {', '.join(missing)}")
    for s, p in table.items():
        if not isinstance(p, Player):
            raise TypeError(f"the player for {s.name} has no call(view) and card(view): "
                            f"{type(p).__name__}")
    return table


def _claim_holds(pos: Position, tricks: int) -> bool:
    """Whether the side to move takes ``tricks`` of the remaining tricks against every
    defence, all hands known (the exact double-dummy value)."""
    if tricks == 0:
        return True
    from ddsolver.solver import solve_best
    return solve_best(pos) >= tricks


def play_board(deal: Deal, players: Mapping, dealer, vulnerability, auction=None,
               scoring: str = "IMP", system=None, *, human=None,
               progress: Optional[Progress] = None,
               observer: Optional[Callable[[TableEvent], None]] = None) -> BoardResult:
    """Play one board: the auction (unless given), then the play, then the score.

    :param deal: a complete :class:`~ddsolver.deal.Deal`.
    :param players: ``{seat: Player}`` for the four seats (seats as :class:`Seat`, letters
        or 0..3).  Dummy's player is never asked; declarer's is asked for dummy's cards.
    :param dealer: the dealer; :param vulnerability: the vulnerability (any form
        :meth:`Vulnerability.coerce` reads).
    :param auction: a finished auction to use instead of bidding (an
        :class:`~ddsolver.auction.Auction`, text or list of calls), or ``None``.
    :param scoring: ``"IMP"`` or ``"MP"`` (what the players aim for).
    :param system: the bidding system whose explanations the players see (default
        :class:`ai.bidding.StandardAmerican`).
    :param human: the seat of a human who plays partner's cards too whenever their side
        wins the contract (see the module docstring), or ``None``.
    :param progress: calls and cards already made (a :class:`Progress`, e.g. from a saved
        match): the board goes on from there.  Not together with ``auction``.
    :param observer: called with a :class:`TableEvent` after every call and card and on
        every claim.
    :returns: a :class:`BoardResult`.
    :raises InvalidDealError: if ``deal`` is not a complete deal.
    :raises IllegalCallError: if a player makes an illegal call, a given auction is not
        finished, or ``progress`` holds an illegal call (the message names the seat).
    :raises IllegalCardError: if a player plays a card that is not legal or claims twice at
        one turn, or ``progress`` holds an illegal card (names the seat).
    :raises TypeError, ValueError: bad ``players``, ``scoring`` or ``human``, a claim
        of more tricks than are left, ``auction`` together with ``progress``.
    """
    if not isinstance(deal, Deal) or not deal.is_complete():
        raise InvalidDealError(f"play_board needs a complete Deal, got {deal!r}")
    table = _check_players(players)
    dealer = Seat.coerce(dealer)
    vulnerability = Vulnerability.coerce(vulnerability)
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {SCORINGS}, got {scoring!r}")
    if human is not None:
        human = Seat.coerce(human)
    if progress is not None and auction is not None:
        raise ValueError("give either a finished auction or the progress of the board")
    if progress is not None and not isinstance(progress, Progress):
        raise TypeError(f"progress must be a Progress, got {type(progress).__name__}")
    if system is None:
        from ai.bidding import StandardAmerican
        system = StandardAmerican()
    notify = observer if observer is not None else (lambda event: None)

    played: list = [] if progress is None else list(progress.play)
    if auction is not None:
        given = auction if isinstance(auction, Auction) else (
            Auction.from_str(dealer, auction) if isinstance(auction, str)
            else Auction(dealer, auction))
        if given.dealer != dealer:
            raise IllegalCallError(f"the auction's dealer {given.dealer.name} is not "
                                   f"{dealer.name}")
        if not given.is_finished:
            raise IllegalCallError(f"the given auction {given} is not finished")
        calls = tuple(given.calls)
        explanations = tuple(system.explain_all(given))
    else:
        current = Auction(dealer, () if progress is None else progress.calls)
        if played and not current.is_finished:
            raise IllegalCardError("the progress has cards played before the auction ended")
        exps = list(system.explain_all(current))
        while not current.is_finished:
            seat = current.to_act
            view = view_of(deal, seat, dealer=dealer, vulnerability=vulnerability,
                           calls=current.calls, explanations=exps, scoring=scoring)
            call = table[seat].call(view)
            if isinstance(call, str):
                try:
                    call = Call.from_str(call)
                except BridgeError:
                    pass
            if not isinstance(call, Call) or not current.is_legal(call):
                raise IllegalCallError(f"{seat.name} made an illegal call {call!r} after "
                                       f"{' '.join(map(str, current.calls)) or 'nothing'}")
            exp = system.explain(current, call)
            exps.append(exp)
            current.add(call)
            notify(TableEvent("call", seat, Progress(tuple(current.calls)), call=call,
                              explanation=exp))
        calls = tuple(current.calls)
        explanations = tuple(exps)

    final = Auction(dealer, calls)
    contract = final.contract
    if contract is None:
        if played:
            raise IllegalCardError("cards were played on a passed-out board")
        return BoardResult(deal, dealer, vulnerability, scoring, calls, explanations,
                           None, None, (), 0, 0)
    declarer = final.declarer
    dummy = declarer.partner
    pos = Position(deal, trump=contract.strain, leader=declarer.lho)
    for seat, card in played:
        try:
            pos.play(card, seat=seat)
        except BridgeError as exc:
            raise IllegalCardError(f"the progress holds an illegal card: {seat.name} "
                                   f"{card}: {exc}") from None
    both_hands = human is not None and human.side == declarer.side
    claim = None
    while len(played) < 52:
        to_play = pos.to_move
        controller = declarer if to_play in (declarer, dummy) else to_play
        asked = table[human] if both_hands and controller == declarer else table[controller]
        view = view_of(deal, controller, dealer=dealer, vulnerability=vulnerability,
                       calls=calls, explanations=explanations, played=played,
                       scoring=scoring)
        whose = f"{controller.name} (for dummy)" if to_play == dummy else controller.name
        refused = False
        while True:
            card = asked.card(view)
            if not isinstance(card, Claim):
                break
            if refused:
                raise IllegalCardError(f"{whose} claimed again at the same turn after a "
                                       f"refused claim")
            left = 13 - len(played) // 4
            if card.tricks > left:
                raise ValueError(f"{whose} claimed {card.tricks} tricks with {left} left")
            snapshot = Progress(calls, tuple(played))
            if _claim_holds(pos, card.tricks):
                claim = (controller, card.tricks)
                notify(TableEvent("claim", controller, snapshot, tricks=card.tricks))
                break
            refused = True
            notify(TableEvent("claim_refused", controller, snapshot, tricks=card.tricks))
        if claim is not None:
            break
        if isinstance(card, str):
            try:
                card = Card.from_str(card)
            except BridgeError:
                pass
        if card not in view.legal_cards:
            raise IllegalCardError(f"{whose} played {card!r}, not one of the legal cards "
                                   f"{' '.join(map(str, view.legal_cards))}")
        pos.play(card)
        played.append((to_play, card))
        winner = None
        if len(played) % 4 == 0:
            winner = trick_winner([c for _, c in played[-4:]], played[-4][0],
                                  contract.strain)
        notify(TableEvent("card", to_play, Progress(calls, tuple(played)), card=card,
                          trick_winner=winner))
    won = pos.tricks_won[declarer.side]
    if claim is not None:
        left = 13 - len(played) // 4
        won += claim[1] if claim[0].side == declarer.side else left - claim[1]
    return BoardResult(deal, dealer, vulnerability, scoring, calls, explanations, contract,
                       declarer, tuple(played), won, ns_score(contract, won, vulnerability),
                       claim)

