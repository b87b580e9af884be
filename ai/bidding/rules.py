"""The rule machinery: auction context, auction patterns and :class:`Rule`.

A rule is data: *where* it applies (auction patterns such as ``"1M P"`` plus optional
conditions), *which call* it makes (a call template such as ``"2M"`` or ``"1y"``), *what hand*
it needs (a :class:`HandConstraints` built from a small spec), flags (forcing, artificial,
alert) and a priority.  A bidding system is an ordered collection of rules; see
:class:`ai.bidding.system.BiddingSystem`.

Pattern language (one token per call, from the opening bid up to the call before the one
to be made; the seat to act is implied by the pattern's length):

* ``P``, ``X``, ``XX`` and bids such as ``1NT`` or ``2C`` match themselves;
* a level followed by a suit variable matches a bid at that level and binds the variable:
  ``x``, ``y``, ``z``, ``w`` any suit, ``M`` a major, ``m`` a minor, ``O`` the other major
  (different variables bind different suits);
* ``*`` matches any call, ``+`` any call but a pass, ``B`` any bid.

The pattern ``""`` (empty) matches when no one has bid yet (an opening position).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple, Union

from ai.constraints import MAX_HCP, HandConstraints
from ddsolver.auction import Call
from ddsolver.cards import Strain, Suit
from ddsolver.contract import game_level
from ddsolver.deal import Hand
from ddsolver.table import Seat

from .explanation import Forcing

__all__ = ["SUIT_VARS", "Bindings", "Context", "Pattern", "Rule"]

Bindings = Dict[str, Strain]

#: Variable letters and the strains each may bind.
SUIT_VARS = {
    "x": (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES),
    "y": (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES),
    "z": (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES),
    "w": (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES),
    "M": (Strain.HEARTS, Strain.SPADES),
    "O": (Strain.HEARTS, Strain.SPADES),
    "m": (Strain.CLUBS, Strain.DIAMONDS),
}

_TOKEN = re.compile(r"^([1-7])([CDHSxyzwMmO]|NT)$")


class Context:
    """One auction seen from the seat to act.

    Everything here is public information (the calls), so rules that depend on the context
    alone can be explained to anyone.  ``hand`` is not part of it.

    :ivar auction: the :class:`ddsolver.auction.Auction`.
    :ivar seat: the seat to act.
    :ivar calls: all calls so far (tuple of :class:`Call`).
    :ivar opening_index: index in ``calls`` of the first bid, or ``None``.
    :ivar since: calls from the opening bid on (empty if no bid yet).
    """

    def __init__(self, auction, system=None, vulnerability=None):
        self.auction = auction
        self.system = system
        self.vulnerability = vulnerability
        self.calls: Tuple[Call, ...] = tuple(auction.calls)
        self.dealer: Seat = auction.dealer
        self.seat: Seat = auction.to_act
        self.opening_index: Optional[int] = next(
            (i for i, c in enumerate(self.calls) if c.is_bid), None)
        self.since: Tuple[Call, ...] = (
            () if self.opening_index is None else self.calls[self.opening_index:])
        self.position = len(self.calls) + 1 if self.opening_index is None else None
        self._inference = None
        self._explanations = None

    # -- who did what ---------------------------------------------------------------
    def seat_of(self, index: int) -> Seat:
        """The seat that made call number ``index`` (0-based)."""
        return self.dealer.next(index)

    @property
    def opener(self) -> Optional[Seat]:
        return None if self.opening_index is None else self.seat_of(self.opening_index)

    @property
    def partner(self) -> Seat:
        return self.seat.partner

    def calls_of(self, seat: Seat) -> List[Call]:
        """Calls made by ``seat`` so far, in order."""
        return [c for i, c in enumerate(self.calls) if self.seat_of(i) == seat]

    @property
    def last_bid(self) -> Optional[Call]:
        for c in reversed(self.calls):
            if c.is_bid:
                return c
        return None

    @property
    def last_bid_seat(self) -> Optional[Seat]:
        for i in range(len(self.calls) - 1, -1, -1):
            if self.calls[i].is_bid:
                return self.seat_of(i)
        return None

    @property
    def last_bid_ours(self) -> bool:
        s = self.last_bid_seat
        return s is not None and s.side == self.seat.side

    @property
    def doubled(self) -> int:
        """0, 1 or 2: whether the last bid stands doubled or redoubled."""
        d = 0
        for c in reversed(self.calls):
            if c.is_bid:
                return d
            if c.is_redouble:
                d = max(d, 2)
            elif c.is_double:
                d = max(d, 1)
        return d

    def bid_strains(self, side_of: Seat) -> List[Strain]:
        """Strains bid (in order, first mention) by the side of ``side_of``."""
        out: List[Strain] = []
        for i, c in enumerate(self.calls):
            if c.is_bid and self.seat_of(i).side == side_of.side and c.strain not in out:
                out.append(c.strain)
        return out

    def opponents_suits(self) -> List[Suit]:
        """Suits bid by the opponents of the seat to act (natural or not)."""
        return [Suit(int(s)) for s in self.bid_strains(self.seat.lho) if s != Strain.NOTRUMP]

    def is_legal(self, call: Call) -> bool:
        return self.auction.is_legal(call)

    # -- what earlier calls meant ---------------------------------------------------
    def explanations(self) -> list:
        """Explanations of every call so far (index-aligned with :attr:`calls`)."""
        if self._explanations is None:
            self._explanations = self.system.explain_all(self.auction) if self.system else []
        return self._explanations

    def shown(self, seat: Seat) -> HandConstraints:
        """What the calls of ``seat`` have shown (see :func:`ai.inference.infer`)."""
        if self._inference is None:
            from ai.inference import combine
            self._inference = combine(self.auction, self.explanations())
        return self._inference[seat].constraints

    def last_explanation(self, seat: Seat):
        """The explanation of ``seat``'s most recent call, or ``None``."""
        exps = self.explanations()
        for i in range(len(self.calls) - 1, -1, -1):
            if self.seat_of(i) == seat:
                return exps[i] if i < len(exps) else None
        return None

    def forced(self) -> bool:
        """Whether the seat to act may not pass: partner's last call was forcing and the
        right-hand opponent passed (or partner's side is game forced below game)."""
        exp = self.last_explanation(self.partner)
        rho_call = self.calls[-1] if self.calls else None
        if exp is None:
            return False
        if exp.forcing.is_forcing and rho_call is not None and rho_call.is_pass:
            return True
        return self.game_forced() and not self.game_reached()

    def game_forced(self) -> bool:
        """Whether some call of our side was game forcing."""
        exps = self.explanations()
        for i, e in enumerate(exps):
            if self.seat_of(i).side == self.seat.side and e.forcing is Forcing.GAME_FORCING:
                return True
        return False

    def game_reached(self) -> bool:
        """Whether the last bid is at game level or higher (any side)."""
        b = self.last_bid
        if b is None:
            return False
        return b.level >= game_level(b.strain)


class Pattern:
    """A compiled auction pattern (see the module docstring)."""

    __slots__ = ("text", "tokens")

    def __init__(self, text: str):
        self.text = text
        self.tokens = tuple(text.split())
        for t in self.tokens:
            if t in ("P", "X", "XX", "*", "+", "B"):
                continue
            if not _TOKEN.match(t):
                raise ValueError(f"bad pattern token {t!r} in {text!r}")

    def match(self, since: Sequence[Call], bindings: Optional[Bindings] = None
              ) -> Iterator[Bindings]:
        """Yield every binding under which ``since`` matches this pattern."""
        if len(since) != len(self.tokens):
            return
        yield from _match_tokens(self.tokens, since, 0, dict(bindings or {}))


def _match_tokens(tokens, calls, i, b) -> Iterator[Bindings]:
    if i == len(tokens):
        yield dict(b)
        return
    t, c = tokens[i], calls[i]
    if t == "*":
        yield from _match_tokens(tokens, calls, i + 1, b)
        return
    if t == "+":
        if not c.is_pass:
            yield from _match_tokens(tokens, calls, i + 1, b)
        return
    if t == "B":
        if c.is_bid:
            yield from _match_tokens(tokens, calls, i + 1, b)
        return
    if t == "P":
        if c.is_pass:
            yield from _match_tokens(tokens, calls, i + 1, b)
        return
    if t == "X":
        if c.is_double:
            yield from _match_tokens(tokens, calls, i + 1, b)
        return
    if t == "XX":
        if c.is_redouble:
            yield from _match_tokens(tokens, calls, i + 1, b)
        return
    if not c.is_bid or c.level != int(t[0]):
        return
    s = t[1:]
    if s in ("C", "D", "H", "S", "NT"):
        if c.strain == Strain.from_str(s):
            yield from _match_tokens(tokens, calls, i + 1, b)
        return
    if c.strain == Strain.NOTRUMP or c.strain not in SUIT_VARS[s]:
        return
    if s in b:
        if b[s] == c.strain:
            yield from _match_tokens(tokens, calls, i + 1, b)
        return
    if c.strain in b.values():
        return
    b[s] = c.strain
    yield from _match_tokens(tokens, calls, i + 1, b)
    del b[s]


def resolve_template(template: str, b: Bindings) -> Iterator[Tuple[Call, Bindings]]:
    """Calls of a template (``"2M"``, ``"1y"``, ``"3NT"``, ``"P"``): a free variable
    ranges over its strains not bound to another variable."""
    if template == "P":
        yield Call.from_str("P"), b
        return
    if template in ("X", "XX"):
        yield Call.from_str(template), b
        return
    level = int(template[0])
    s = template[1:]
    if s in ("C", "D", "H", "S", "NT"):
        yield Call.bid(level, Strain.from_str(s)), b
        return
    if s in b:
        yield Call.bid(level, b[s]), b
        return
    used = set(b.values())
    for strain in SUIT_VARS[s]:
        if strain in used:
            continue
        nb = dict(b)
        nb[s] = strain
        yield Call.bid(level, strain), nb


HandSpec = Union[dict, HandConstraints, Callable[["Context", Bindings], HandConstraints]]


def _value(v, ctx, b):
    return v(ctx, b) if callable(v) else v


def build_constraints(spec: HandSpec, ctx: Context, b: Bindings) -> HandConstraints:
    """Turn a hand spec into :class:`HandConstraints` for one binding.

    A dict spec may hold ``hcp=(lo, hi)``; per-suit length bounds keyed by a suit letter
    (``"S"``) or a bound variable (``"x"``), as ``(lo, hi)`` or ``lo``; ``balanced``;
    ``stop`` (a list of suit letters / variables, or ``"theirs"`` for every suit the
    opponents bid, or a function ``(ctx, bindings)`` giving such a list); ``aces``.  Any
    bound may be a function ``(ctx, bindings) -> int``.
    """
    if isinstance(spec, HandConstraints):
        return spec
    if callable(spec):
        return spec(ctx, b)
    hcp = _value(spec.get("hcp", (None, None)), ctx, b)
    if hcp is None or isinstance(hcp, int):
        hcp = (hcp, None)
    lo, hi = _value(hcp[0], ctx, b), _value(hcp[1], ctx, b)
    lengths = [[0, 13] for _ in range(4)]
    for key, bound in spec.items():
        if key in ("hcp", "balanced", "stop", "aces"):
            continue
        if key in b:
            suit = int(b[key])
        elif key in ("C", "D", "H", "S"):
            suit = int(Strain.from_str(key))
        else:
            raise KeyError(f"unbound suit variable {key!r} in hand spec")
        bound = _value(bound, ctx, b)
        if isinstance(bound, int):
            bound = (bound, None)
        a, z = bound
        a, z = _value(a, ctx, b), _value(z, ctx, b)
        if a is not None:
            lengths[suit][0] = max(lengths[suit][0], a)
        if z is not None:
            lengths[suit][1] = min(lengths[suit][1], z)
    stops = _value(spec.get("stop", ()), ctx, b)
    if stops == "theirs":
        stop_suits = ctx.opponents_suits()
    else:
        stop_suits = []
        for k in stops:
            if k == "theirs":
                stop_suits.extend(ctx.opponents_suits())
            elif k in b:
                stop_suits.append(Suit(int(b[k])))
            else:
                stop_suits.append(Suit.from_str(k))
    # bounds computed from the auction may cross (the rule then fits no hand, as is_empty
    # says): built unchecked, as combined constraints are, not refused as bad input
    return HandConstraints._unchecked(
        hcp=(0 if lo is None else max(0, lo), MAX_HCP if hi is None else min(MAX_HCP, hi)),
        lengths=tuple((max(0, a), min(13, z)) for a, z in lengths),
        balanced=_value(spec.get("balanced"), ctx, b),
        stoppers=frozenset(stop_suits),
        aces=None if spec.get("aces") is None else frozenset(spec["aces"]),
    )


@dataclass(frozen=True)
class Rule:
    """One rule of a bidding system.

    :ivar name: short name shown in explanations (``"Stayman"``).
    :ivar patterns: auction patterns where the rule applies (see module docstring).
    :ivar call: a call template (``"2C"``, ``"2M"``, ``"1y"``) or a function
        ``(ctx, bindings) -> iterable of (Call, bindings)``.
    :ivar hand: the hand spec (see :func:`build_constraints`).  These constraints are the
        call's promise: they appear in the explanation and feed the inference.
    :ivar meaning: English, with ``{x}``-style placeholders for bound suits.
    :ivar forcing: :class:`Forcing` or a function of ``(ctx, bindings)``.
    :ivar artificial: the call is artificial (conventional).
    :ivar alert: the call is alertable.
    :ivar priority: higher wins when several rules fit the hand.
    :ivar when: extra condition on the auction ``(ctx, bindings) -> bool``.
    :ivar judge: extra condition on the hand that is judgement, not promise
        ``(hand, ctx, bindings) -> bool`` (e.g. suit quality); never weakens the promise.
    :ivar prefer: ``(hand, ctx, bindings) -> sortable``; among instances of one rule the
        highest is chosen (e.g. the longest suit).
    :ivar where: condition on a resolved call ``(ctx, bindings, call) -> bool`` (e.g. "not
        a jump").
    :ivar group: ``""`` for a specific rule; ``"generic"`` for a rule that applies only
        where no specific rule's auction pattern matches; ``"always"`` for a rule that is
        neither (it applies wherever its own conditions hold and blocks nothing).
    """

    name: str
    patterns: Tuple[str, ...]
    call: Union[str, Callable]
    hand: HandSpec = field(default_factory=dict)
    meaning: str = ""
    forcing: Union[Forcing, Callable] = Forcing.NON_FORCING
    artificial: bool = False
    alert: bool = False
    priority: int = 0
    when: Optional[Callable[[Context, Bindings], bool]] = None
    judge: Optional[Callable[[Hand, Context, Bindings], bool]] = None
    prefer: Optional[Callable[[Hand, Context, Bindings], object]] = None
    where: Optional[Callable[[Context, Bindings, Call], bool]] = None
    group: str = ""

    def __post_init__(self):
        pats = self.patterns
        if isinstance(pats, str):
            pats = (pats,)
        object.__setattr__(self, "patterns", tuple(pats))
        object.__setattr__(self, "_compiled",
                           tuple(Pattern(p) if p is not None else None for p in pats))

    def situations(self, ctx: Context) -> Iterator[Bindings]:
        """Bindings under which the rule applies to ``ctx`` (before looking at the hand)."""
        seen = []
        for pat in self._compiled:  # type: ignore[attr-defined]
            if pat is None:
                it = iter([{}])
            else:
                it = pat.match(ctx.since)
            for b in it:
                if self.when is not None and not self.when(ctx, b):
                    continue
                if b in seen:
                    continue
                seen.append(b)
                yield b

    def instances(self, ctx: Context) -> Iterator[Tuple[Call, Bindings, HandConstraints]]:
        """Every ``(call, bindings, constraints)`` this rule offers in ``ctx``; only legal
        calls are produced."""
        for b in self.situations(ctx):
            if callable(self.call):
                gen = self.call(ctx, b)
            elif isinstance(self.call, (tuple, list)):
                gen = (r for t in self.call for r in resolve_template(t, b))
            else:
                gen = resolve_template(self.call, b)
            for call, nb in gen:
                if call is None or not ctx.is_legal(call):
                    continue
                if self.where is not None and not self.where(ctx, nb, call):
                    continue
                cons = build_constraints(self.hand, ctx, nb)
                yield call, nb, cons

    def forcing_in(self, ctx: Context, b: Bindings) -> Forcing:
        return self.forcing(ctx, b) if callable(self.forcing) else self.forcing

    def describe(self, b: Bindings) -> str:
        """:attr:`meaning` with suit placeholders filled in."""
        names = {k: _strain_name(v) for k, v in b.items() if isinstance(v, Strain)}
        try:
            return self.meaning.format(**names)
        except (KeyError, IndexError):
            return self.meaning


def _strain_name(s: Strain) -> str:
    return "notrump" if s == Strain.NOTRUMP else s.symbol
