"""LIN reader: Bridge Base Online hand records and vugraph files.

LIN is a flat sequence of ``key|value|`` items (no public specification exists; the
meaning below is what BBO writes).  The items read:

=====  ===================================================================================
``pn``  player names, South, West, North, East (vugraph: 8 names, open room then closed)
``st``  small title (ignored)
``md``  the deal: a dealer digit (1 = South, 2 = West, 3 = North, 4 = East), then the hands
        of South, West, North and East separated by commas, each ``S..H..D..C..``; the last
        hand may be left empty and is then the cards the other three do not hold
``sv``  vulnerability: ``o`` (none), ``n`` (N-S), ``e`` (E-W), ``b`` (both)
``ah``  board header, e.g. ``Board 12`` (the number after "Board", else a number standing
        alone); ``rh`` resets the header (ignored)
``mb``  a call (``p``, ``d``, ``r``, ``1N``, ``2H``...), a trailing ``!`` marks an alert
``an``  explanation of the call just made
``pc``  a card played, e.g. ``SA`` (chronological order)
``mc``  a claim: the total number of tricks declarer takes
``pg``  page break (ignored); ``nt`` commentary text (kept as comments)
``qx``  board id in vugraph files: ``o12`` open room board 12, ``c12`` closed room
``vg``  vugraph header: event, segment, scoring (I/P/B), first and last board, teams
``rs``  vugraph results, two per board (open, closed), e.g. ``4HN+1``
``pw``  (vugraph) player names per board; ``bn`` board numbers (kept, not interpreted)
=====  ===================================================================================

Other keys are kept in :attr:`PBNGame.lin` ``["items"]`` and otherwise ignored.

Each board becomes the same :class:`~ddsolver.pbn.PBNGame` the PBN reader gives, with the
mandatory tags, ``Room`` for vugraph boards, the auction (alerts and explanations on the
calls; explanations also as ``Note`` tags), the play laid out by tricks, the claim in
:attr:`PBNGame.claim` and ``Contract``/``Declarer``/``Result`` filled in, so a LIN file can
be analysed and written back as PBN.
"""

from __future__ import annotations

import os
import re
from typing import IO, Any

from ._io import read_source
from .cards import FULL_DECK_MASK, Card, Rank, Strain, Suit
from .deal import Deal, Hand
from .errors import BridgeError, InvalidNotationError, LINError, PBNError, brief_repr
from .pbn import AnnotatedCall, PBNGame
from .table import Seat, Vulnerability, board_dealer, board_vulnerability

__all__ = ["LINItem", "parse_lin", "read_lin"]

_LIN_DEALER = {"1": Seat.SOUTH, "2": Seat.WEST, "3": Seat.NORTH, "4": Seat.EAST}
#: Hands in an ``md`` item and names in a ``pn`` item come in this seat order.
_LIN_SEATS = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
_KEY_RE = re.compile(r"[A-Za-z][A-Za-z0-9]\Z")
_QX_RE = re.compile(r"\s*([oOcC])\s*(\d+)")
_RS_RE = re.compile(r"([1-7])(NT|N|C|D|H|S)(XX|X)?([NESW])(XX|X)?(=|[+-]\d{1,2})?\Z", re.IGNORECASE)
_HEADER_KEYS = frozenset(["ah", "sv", "rh", "st"])


class LINItem(tuple):
    """One ``key|value|`` item: ``(key, value, line, number)`` (line and 1-based item
    number in the file, for messages)."""

    __slots__ = ()

    def __new__(cls, key: str, value: str, line: int, number: int):
        return tuple.__new__(cls, (key, value, line, number))

    key = property(lambda self: self[0])
    value = property(lambda self: self[1])
    line = property(lambda self: self[2])
    number = property(lambda self: self[3])


def _items(text: str, source: str | None) -> list[LINItem]:
    items: list[LINItem] = []
    pos = 0
    n = len(text)
    line = 1  # line number at ``pos``
    while pos < n:
        bar = text.find("|", pos)
        segment = text[pos:bar if bar >= 0 else n]
        lead = len(segment) - len(segment.lstrip())
        key_line = line + text.count("\n", pos, pos + lead)
        key = segment.strip()
        if bar < 0:
            if key:
                raise LINError(_where(source, key_line, len(items) + 1, key[:20],
                                      "text after the last item (no '|'): not LIN"))
            break
        end = text.find("|", bar + 1)
        if end < 0:
            raise LINError(_where(source, key_line, len(items) + 1, key[:20],
                                  "value not closed by '|': not LIN"))
        if not _KEY_RE.match(key):
            raise LINError(_where(source, key_line, len(items) + 1, key[:20],
                                  "not a LIN key (two letters expected)"))
        items.append(LINItem(key.lower(), text[bar + 1:end], key_line, len(items) + 1))
        line += text.count("\n", pos, end + 1)
        pos = end + 1
    return items


def _where(source: str | None, line: int, number: int, key: str, message: str,
           value: str | None = None) -> str:
    parts = []
    if source:
        parts.append(source)
    parts.append(f"line {line}")
    item = f"item {number} ({key!r}"
    if value is not None:
        shown = value if len(value) <= 40 else value[:37] + "..."
        item += f" {shown!r}"
    parts.append(item + ")")
    return ", ".join(parts) + ": " + message


class _Board:
    def __init__(self, names: list[str] | None, pending: list[LINItem]):
        self.names = names
        self.room: str | None = None
        self.number: int | None = None
        self.md: LINItem | None = None
        self.headers: list[LINItem] = list(pending)
        self.calls: list[dict[str, Any]] = []
        self.cards: list[tuple[Card, LINItem]] = []
        self.claim: tuple[int, LINItem] | None = None
        self.comments: list[str] = []
        self.warnings: list[str] = []
        self.items: list[LINItem] = list(pending)
        self.first_item: LINItem | None = None

    @property
    def started(self) -> bool:
        return bool(self.calls or self.cards or self.claim)


class _Parser:
    def __init__(self, text: str, source: str | None):
        self.source = source
        self.items = _items(text, source)
        self.boards: list[_Board] = []
        self.names: list[str] | None = None
        self.pending: list[LINItem] = []
        self.vg: list[str] | None = None
        self.rs: list[str] | None = None
        self.bn: list[str] | None = None
        self.pw: list[str] | None = None

    def error(self, item: LINItem, message: str) -> LINError:
        return LINError(_where(self.source, item.line, item.number, item.key, message,
                               item.value))

    def new_board(self, item: LINItem) -> _Board:
        board = _Board(self.names, self.pending)
        board.first_item = item
        self.pending = []
        self.boards.append(board)
        return board

    def run(self) -> list[PBNGame]:
        current: _Board | None = None
        for item in self.items:
            key, value = item.key, item.value
            if key == "qx":
                current = self.new_board(item)
                m = _QX_RE.match(value)
                if m is None or len(m.group(2).lstrip("0")) > 9:
                    raise self.error(item, "bad board id (expected o<n> or c<n>)")
                current.room = m.group(1).lower()
                current.number = int(m.group(2).lstrip("0") or "0")
                current.items.append(item)
            elif key == "md":
                if current is None or current.md is not None:
                    current = self.new_board(item)
                current.md = item
                current.items.append(item)
            elif key == "pn":
                self.names = [" ".join(s.split()) for s in value.split(",")]
                if current is not None and not current.started:
                    current.names = self.names
                    current.items.append(item)
            elif key in _HEADER_KEYS:
                if current is not None and not current.started:
                    current.headers.append(item)
                    current.items.append(item)
                else:
                    self.pending.append(item)
            elif key in ("mb", "an", "pc", "mc", "nt", "pg", "up"):
                if current is None:
                    if key in ("nt", "pg"):
                        continue
                    raise self.error(item, "a call, card or claim before any deal ('md')")
                current.items.append(item)
                self.board_item(current, item)
            elif key == "vg":
                self.vg = [" ".join(x.split()) for x in value.split(",")]
            elif key == "rs":
                self.rs = value.split(",")
            elif key == "bn":
                self.bn = [" ".join(s.split()) for s in value.split(",")]
            elif key == "pw":
                self.pw = [s.strip() for s in value.split(",")]
            elif current is not None:
                current.items.append(item)
        return [self.make_game(b) for b in self.boards]

    def board_item(self, board: _Board, item: LINItem) -> None:
        key, value = item.key, item.value
        if key == "mb":
            text = value.strip()
            alert = "!" in text
            text = text.replace("!", "").strip()
            if board.cards:
                raise self.error(item, "a call after the play has started (a new board "
                                       "starts with its deal, 'md', or its id, 'qx')")
            try:
                from .auction import Call

                call = Call.from_str(text)
            except (InvalidNotationError, ValueError):
                raise self.error(item, "bad call") from None
            board.calls.append({"call": call, "alert": alert, "explanation": None,
                                "item": item})
        elif key == "an":
            if not board.calls:
                raise self.error(item, "an explanation ('an') before any call")
            text = " ".join(value.split())     # an explanation may wrap over lines
            prev = board.calls[-1]["explanation"]
            board.calls[-1]["explanation"] = text if prev is None else f"{prev} {text}"
        elif key == "pc":
            card = _parse_lin_card(value)
            if card is None:
                raise self.error(item, "bad card")
            if board.claim is not None:
                raise self.error(item, "a card played after the claim")
            board.cards.append((card, item))
        elif key == "mc":
            text = value.strip()
            if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > 2 \
                    or int(text.lstrip("0") or "0") > 13:
                raise self.error(item, "bad claim (expected 0..13 tricks)")
            board.claim = (int(text.lstrip("0") or "0"), item)
        elif key == "nt" and value.strip():
            board.comments.append(value.strip())
        elif key == "up":
            board.warnings.append(f"line {item.line}: undo item 'up|{value}|' ignored")
        # 'pg' (page break) carries nothing for a record.

    # -- building the game -------------------------------------------------------------
    def parse_md(self, item: LINItem) -> tuple[Seat | None, Deal | None]:
        text = item.value.strip()
        dealer = None
        if text[:1] in _LIN_DEALER:
            dealer = _LIN_DEALER[text[0]]
            text = text[1:]
        elif text[:1].isdigit():
            raise self.error(item, f"bad dealer digit {text[0]!r} (1=S, 2=W, 3=N, 4=E)")
        parts = text.split(",")
        if len(parts) > 4 and any(p.strip() for p in parts[4:]):
            raise self.error(item, f"{len(parts)} hands (at most 4: S, W, N, E)")
        parts = (parts + [""] * 4)[:4]
        hands: list[Hand | None] = [None] * 4
        for seat, part in zip(_LIN_SEATS, parts):
            part = part.strip()
            if not part:
                continue
            try:
                hands[seat] = _parse_lin_hand(part)
            except ValueError as exc:
                raise self.error(item, f"bad hand {brief_repr(part)} for {seat.name}: "
                                       f"{exc}") from None
        known = [h for h in hands if h is not None]
        if not known:
            return dealer, None
        if len(known) == 3 and all(len(h) == 13 for h in known):
            used = 0
            for h in known:
                if used & h.mask:
                    card = next(iter(Hand(used & h.mask)))
                    raise self.error(item, f"card {card} is dealt to two hands")
                used |= h.mask
            missing = hands.index(None)
            full = 0
            for h in known:
                full |= h.mask
            hands[missing] = Hand(FULL_DECK_MASK & ~full)
        try:
            complete = all(h is not None and len(h) == 13 for h in hands)
            deal = Deal(hands, complete=complete, equal_lengths=complete)
        except BridgeError as exc:
            raise self.error(item, f"bad deal: {exc}") from None
        return dealer, deal

    def make_game(self, b: _Board) -> PBNGame:
        from .play import Position

        anchor = b.md or b.first_item
        dealer, deal = (None, None) if b.md is None else self.parse_md(b.md)
        number = b.number
        vul: Vulnerability | None = None
        for item in b.headers:
            if item.key == "ah":
                # the number after "Board" ("Round 2 Board 17" is board 17), else a number
                # standing alone (not "-3")
                # (runs of white space as one space: "bd" and a long run without a number
                # after it would be tried split between the two \s* in every way)
                heading = " ".join(item.value.split())
                m = (re.search(r"\b(?:board|bd)\.?\s*#?\s*([0-9]+)", heading, re.IGNORECASE)
                     or re.search(r"(?<![-+0-9.])([0-9]+)(?![0-9.])", heading))
                if m and number is None and len(m.group(1).lstrip("0")) <= 9:
                    number = int(m.group(1).lstrip("0") or "0")
            elif item.key == "sv":
                try:
                    # an empty sv| is read as none vulnerable, as it always was here
                    vul = (Vulnerability.from_str(item.value) if item.value.strip()
                           else Vulnerability.NONE)
                except InvalidNotationError:
                    raise self.error(item, "bad vulnerability (o, n, e or b)") from None
        if number is not None and number < 1:
            number = None
        if dealer is None and number is not None:
            dealer = board_dealer(number)
        if vul is None and number is not None:
            vul = board_vulnerability(number)
        players: dict[Seat, str] = {}
        names = b.names
        if names:
            offset = 4 if (b.room == "c" and len(names) >= 8) else 0
            for i, seat in enumerate(_LIN_SEATS):
                if offset + i < len(names):
                    players[seat] = names[offset + i]
        event, scoring = "", ""
        if self.vg:
            event = self.vg[0].strip()
            scoring = {"I": "IMP", "P": "MP", "B": "BAM"}.get(
                (self.vg[2].strip().upper() if len(self.vg) > 2 else ""), "")
        game = PBNGame.new(deal, board=number, dealer=dealer, vulnerability=vul,
                           event=event, scoring=scoring, players=players)
        if deal is None and dealer is not None:
            game.set_tag("Dealer", dealer.letter)
        game.source = self.source
        game.line = None if anchor is None else anchor.line
        game.claim = None if b.claim is None else b.claim[0]
        game.warnings.extend(b.warnings)
        if b.room is not None:
            game.set_tag("Room", "Open" if b.room == "o" else "Closed")
        if self.vg and len(self.vg) > 1 and self.vg[1].strip():
            game.set_tag("Stage", self.vg[1].strip())
        if self.vg and len(self.vg) > 7:
            if self.vg[5].strip():
                game.set_tag("HomeTeam", self.vg[5].strip())
            if self.vg[7].strip():
                game.set_tag("VisitTeam", self.vg[7].strip())
        rs = self.result_string(b, number)
        game.lin = {"room": b.room, "items": list(b.items), "rs": rs, "names": names}
        for c in b.comments:
            game.preamble.append("{" + c.replace("}", ")") + "}")

        contract = None
        declarer = None
        if b.calls:
            if dealer is None:
                raise self.error(b.calls[0]["item"], "calls but no dealer known")
            from .auction import Auction

            probe = Auction(dealer)
            for c in b.calls:
                try:
                    probe.add(c["call"])
                except BridgeError as exc:
                    raise self.error(c["item"], f"illegal call: {exc}") from None
            entries = [AnnotatedCall(dealer.next(i), c["call"], str(c["call"]),
                                     note_text=c["explanation"], alert=c["alert"])
                       for i, c in enumerate(b.calls)]
            parsed = game.set_auction(entries, dealer)
            auction = parsed.auction
            if auction.is_finished:
                if auction.is_passed_out:
                    game.set_tag("Contract", "Pass")
                else:
                    contract = auction.contract
                    declarer = auction.declarer
                    game.set_tag("Contract", _contract_text(contract))
                    game.set_tag("Declarer", declarer.letter)
        fill = _parse_rs(rs) if rs else None
        if fill is not None and not b.cards and b.claim is None:
            # A vugraph board without the play: the rs item gives the outcome.
            if fill == "PASS":
                if contract is None and not b.calls:
                    game.set_tag("Contract", "Pass")
            else:
                level, strain, doubled, seat, tricks = fill
                if contract is None and not b.calls:
                    game.set_tag("Contract", f"{level}{strain.letter}{'X' * doubled}")
                    game.set_tag("Declarer", seat.letter)
                    game.set_tag("Result", str(tricks))
                elif contract is not None and (contract.level, contract.strain,
                                               contract.doubled, declarer) == (
                                                   level, strain, doubled, seat):
                    game.set_tag("Result", str(tricks))

        if b.cards:
            first_card = b.cards[0][1]
            if contract is None or declarer is None:
                raise self.error(first_card, "cards played but the auction gives no contract")
            leader = declarer.lho
            won = None
            if deal is not None and deal.is_complete():
                pos = Position(deal, contract.strain, leader)
                for card, item in b.cards:
                    try:
                        pos.play(card)
                    except BridgeError as exc:
                        raise self.error(item, f"illegal card: {exc}") from None
                won = pos.tricks_won[declarer.side]
            game.set_play([c for c, _ in b.cards], leader, contract.strain)
            if b.claim is not None:
                claim, item = b.claim
                if won is not None and not won <= claim <= won + (13 - len(b.cards) // 4):
                    raise self.error(item, f"claim of {claim} tricks impossible: declarer "
                                           f"has {won} with {13 - len(b.cards) // 4} to play")
                game.set_tag("Result", str(claim))
            elif len(b.cards) == 52 and won is not None:
                game.set_tag("Result", str(won))
        elif b.claim is not None and contract is not None:
            game.set_tag("Result", str(b.claim[0]))
        try:
            game.validate()
        except PBNError as exc:
            raise LINError(str(exc)) from None     # it names the file and board already
        except BridgeError as exc:
            raise LINError(f"{self.source + ': ' if self.source else ''}board "
                           f"{number if number is not None else '?'}: {exc}") from None
        return game

    def result_string(self, b: _Board, number: int | None) -> str | None:
        if self.rs is None or b.room is None or number is None:
            return None
        index = None
        first = self.vg[3].strip() if self.vg and len(self.vg) > 3 else ""
        if first.isascii() and first.isdigit() and len(first) <= 9:
            index = 2 * (number - int(self.vg[3])) + (0 if b.room == "o" else 1)
        elif self.bn and str(number) in self.bn:
            index = 2 * self.bn.index(str(number)) + (0 if b.room == "o" else 1)
        if index is None or not 0 <= index < len(self.rs):
            return None
        return self.rs[index].strip() or None


def _contract_text(contract) -> str:
    return f"{contract.level}{contract.strain.letter}{('', 'X', 'XX')[contract.doubled]}"


def _parse_rs(text: str):
    t = text.strip().upper()
    if t in ("P", "PASS", "PASSED", "AP"):
        return "PASS"
    m = _RS_RE.match(t)
    if m is None:
        return None
    level, strain, x1, seat, x2, res = m.groups()
    doubled = len(x1 or x2 or "")
    level = int(level)
    delta = 0 if res in (None, "=") else int(res)
    tricks = 6 + level + delta
    if not 0 <= tricks <= 13:
        return None
    return level, Strain.from_str(strain), doubled, Seat.from_str(seat), tricks


def _parse_lin_hand(text: str) -> Hand:
    """A LIN hand such as ``SK3H4579QKAD69C58K`` (suit letters, then ranks in any order;
    ``10`` allowed for ten).

    :raises ValueError: naming the problem.
    """
    suit: Suit | None = None
    cards: list[Card] = []
    t = text.upper().replace("10", "T")
    for ch in t:
        if ch in "SHDC":
            suit = Suit.from_str(ch)
            continue
        if ch.isspace():
            continue
        if suit is None:
            raise ValueError(f"rank {ch!r} before any suit letter")
        try:
            rank = Rank.from_str(ch)
        except InvalidNotationError:
            raise ValueError(f"{ch!r} is neither a suit nor a rank") from None
        card = Card(suit, rank)
        if card in cards:
            raise ValueError(f"card {card} twice")
        cards.append(card)
    if len(cards) > 13:
        raise ValueError(f"{len(cards)} cards")
    return Hand(cards)


def _parse_lin_card(text: str) -> Card | None:
    t = text.strip().upper()
    if len(t) < 2:
        return None
    for s, r in ((t[0], t[1:]), (t[-1], t[:-1])):
        try:
            return Card(Suit.from_str(s), Rank.from_str(r))
        except (InvalidNotationError, ValueError):
            continue
    return None


def parse_lin(text: str, *, source: str | None = None) -> list[PBNGame]:
    """Parse LIN text into games, one per deal (``md``) or vugraph board (``qx``).

    :param source: a name for error messages (a file name).
    :returns: :class:`~ddsolver.pbn.PBNGame` objects, validated, in file order.
    :raises LINError: for input that is not LIN (no ``key|value|`` items, a key that is not
        two characters, an unclosed value) or malformed items: a bad deal, call, card,
        claim or vulnerability, an illegal call or card, a card before the auction gives a
        contract.  The message names the line, the item number and the item.
    :raises TypeError: if ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_lin needs a str, got {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        return []
    return _Parser(text, source).run()


def read_lin(source: str | os.PathLike[str] | IO[str] | IO[bytes] | bytes
             ) -> list[PBNGame]:
    """Read LIN games from a path, a file object, bytes, or LIN text (a ``str`` with a line
    break, a blank one, or one with a ``|`` naming no existing file, is taken as text;
    otherwise as a path).

    :raises LINError: for malformed input (see :func:`parse_lin`).
    :raises OSError: if the file cannot be read.
    :raises TypeError: for a source of another type.
    """
    text, name = read_source(source, "|", "read_lin")
    return parse_lin(text, source=name)
