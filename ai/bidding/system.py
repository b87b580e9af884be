"""A bidding system: an ordered collection of :class:`~ai.bidding.rules.Rule` objects.

:class:`BiddingSystem` turns rules into the three services the rest of the program uses:

* :meth:`BiddingSystem.choose` -- the call for a hand (what a computer bids);
* :meth:`BiddingSystem.explain` -- the meaning of any legal call in any auction;
* :meth:`BiddingSystem.hint` -- a suggested call with its explanation (the easy level's help).

How a call is chosen: every rule whose auction patterns match offers its calls; those whose
hand constraints (and judgement) the hand meets compete, the highest priority wins.  If no
ordinary rule fits, *default* rules (which only give meaning to calls no ordinary rule makes
here) are tried; if still nothing fits, the fallback picks the first call, Pass first unless
the seat is forced, whose explanation the hand satisfies.

How a call is explained: the constraints of every ordinary rule that can make the call here
are combined into their envelope (so that whichever rule made it, the hand satisfies the
explanation); without one, a default rule; without one, the natural reading, flagged "not in
the system".
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import List, Tuple

from ai.constraints import HandConstraints
from ddsolver.auction import PASS, Auction, Call
from ddsolver.cards import Strain, Suit
from ddsolver.deal import Hand
from ddsolver.errors import AuctionFinishedError, IllegalCallError, InvalidDealError
from ddsolver.table import Vulnerability

from .explanation import Explanation, Forcing, compose_text
from .rules import Context, Rule

__all__ = ["BiddingSystem", "Candidate", "Hint", "check_vulnerability"]


@dataclass(frozen=True)
class Hint:
    """A suggested call and its explanation (see :meth:`BiddingSystem.hint`)."""

    call: Call
    explanation: Explanation

    def __iter__(self):
        return iter((self.call, self.explanation))


@dataclass(frozen=True)
class Candidate:
    """A call the hand may make without breaking its explanation (see
    :meth:`BiddingSystem.candidates`).

    :ivar call: the call.
    :ivar explanation: what the call means here; the hand satisfies its constraints.
    :ivar judged: some rule making this call accepts the hand on its judgement too (not
        only on its promise): the rules themselves consider the call for this hand.
    :ivar chosen: this is the call :meth:`BiddingSystem.choose` makes.
    :ivar priority: the highest priority among the rules that make the call and whose
        promise the hand meets (``-1`` when only the envelope of several rules is met).
    """

    call: Call
    explanation: Explanation
    judged: bool
    chosen: bool
    priority: int


def _check_hand(hand) -> Hand:
    if not isinstance(hand, Hand):
        raise InvalidDealError(f"expected a Hand, got {type(hand).__name__}: {hand!r}")
    if len(hand) != 13:
        raise InvalidDealError(f"a hand to bid must have 13 cards, {hand} has {len(hand)}")
    return hand


def check_vulnerability(vulnerability) -> Vulnerability:
    """The board's vulnerability from what the rest of the package accepts: a
    :class:`Vulnerability`, its PBN text (``"None"``, ``"NS"``, ``"EW"``, ``"All"``, also
    ``"Both"`` and the other forms of :meth:`Vulnerability.from_str`), 0..3, or ``None``
    for none vulnerable.

    :raises TypeError: for any other type (a bool, a float, a :class:`Side`, ...).
    :raises InvalidNotationError: for text or a number that names no vulnerability.
    """
    if vulnerability is None:
        return Vulnerability.NONE
    return Vulnerability.coerce(vulnerability)


def _check_auction(auction) -> Auction:
    if not isinstance(auction, Auction):
        raise IllegalCallError(f"expected an Auction, got {type(auction).__name__}")
    if auction.is_finished:
        raise AuctionFinishedError(
            f"the auction {' '.join(str(c) for c in auction.calls)} is finished")
    return auction


class BiddingSystem:
    """Rules plus the machinery to bid and explain with them.

    :param rules: ordinary rules.
    :param defaults: default rules (meaning for calls no ordinary rule makes).
    :param name: the system's name.
    """

    name = "bidding system"

    def __init__(self, rules: Sequence[Rule], defaults: Sequence[Rule] = (), name: str = ""):
        self.rules: Tuple[Rule, ...] = tuple(rules)
        self.defaults: Tuple[Rule, ...] = tuple(defaults)
        if name:
            self.name = name
        self._cache: OrderedDict[tuple, Explanation] = OrderedDict()
        self._instance_cache: OrderedDict[tuple, list] = OrderedDict()
        self._index: dict = {}
        self._cache_size = 200_000

    # -- public API -------------------------------------------------------------------
    def choose(self, hand: Hand, auction: Auction,
               vulnerability: Vulnerability = Vulnerability.NONE) -> Call:
        """The call this system makes with ``hand`` for the seat to act in ``auction``.

        Uses only the hand and the auction (what that seat may see).

        :param hand: the 13 cards of the seat to act.
        :param auction: the auction so far (not finished).
        :param vulnerability: of the board (affects judgement, not meanings): a
            :class:`Vulnerability`, its text (``"None"``, ``"NS"``, ``"EW"``, ``"All"``),
            0..3, or ``None`` for none vulnerable (see :func:`check_vulnerability`).
        :raises InvalidDealError: if ``hand`` is not a 13-card :class:`Hand`.
        :raises AuctionFinishedError: if the auction is over.
        :raises TypeError: if ``vulnerability`` is of another type.
        :raises InvalidNotationError: if ``vulnerability`` names no vulnerability.
        """
        return self._choose(hand, auction, vulnerability)[0]

    def hint(self, hand: Hand, auction: Auction,
             vulnerability: Vulnerability = Vulnerability.NONE) -> Hint:
        """The call the system suggests for ``hand`` and its explanation.

        :param vulnerability: as for :meth:`choose`.
        :raises InvalidDealError: if ``hand`` is not a 13-card :class:`Hand`.
        :raises AuctionFinishedError: if the auction is over.
        :raises TypeError: if ``vulnerability`` is of a type no vulnerability has.
        :raises InvalidNotationError: if ``vulnerability`` names no vulnerability.
        """
        call, _ = self._choose(hand, auction, vulnerability)
        return Hint(call, self.explain(auction, call))

    def candidates(self, hand: Hand, auction: Auction,
                   vulnerability: Vulnerability = Vulnerability.NONE) -> List[Candidate]:
        """Every call of the system here whose explanation ``hand`` satisfies: the calls
        among which a bidder may choose (e.g. by simulation) while partner's and the
        opponents' reading of the call stays true.

        Only calls the system makes here are listed (an in-system explanation); the call
        :meth:`choose` makes is always among them, marked ``chosen``.  Ordered as the rules
        rank them: judged calls first, then by priority.

        :param vulnerability: as for :meth:`choose`.
        :raises InvalidDealError: if ``hand`` is not a 13-card :class:`Hand`.
        :raises AuctionFinishedError: if the auction is over.
        :raises TypeError: if ``vulnerability`` is of a type no vulnerability has.
        :raises InvalidNotationError: if ``vulnerability`` names no vulnerability.
        """
        chosen, _ = self._choose(hand, auction, vulnerability)
        vulnerability = check_vulnerability(vulnerability)
        ctx = Context(auction, self, vulnerability)
        ordinary = self._instances(ctx, self.rules)
        made = {i[1] for i in ordinary}
        defaults = [i for i in self._instances(ctx, self.defaults) if i[1] not in made]
        out = []
        for group in (ordinary, defaults):
            by_call = OrderedDict()
            for inst in group:
                by_call.setdefault(inst[1], []).append(inst)
            for call, found in by_call.items():
                exp = self.explain(auction, call)
                if not exp.constraints.satisfied_by(hand):
                    continue
                met = [i for i in found if i[3].satisfied_by(hand)]
                judged = any(i[0].judge is None or i[0].judge(hand, ctx, i[2]) for i in met)
                prio = max((i[0].priority for i in met), default=-1)
                out.append(Candidate(call, exp, judged, call == chosen, prio))
        if not any(c.chosen for c in out):
            out.append(Candidate(chosen, self.explain(auction, chosen), True, True, -1))
        out.sort(key=lambda c: (not c.chosen, not c.judged, -c.priority))
        return out

    def explain(self, auction: Auction, call) -> Explanation:
        """What ``call`` would mean if made now by the seat to act in ``auction``.

        Works for every legal call, including calls the system would never make (their
        explanation is the natural reading, flagged ``in_system=False``).

        :param call: a :class:`Call` or its text (``"2C"``, ``"Pass"``, ``"X"``).
        :raises AuctionFinishedError: if the auction is over.
        :raises IllegalCallError: if ``call`` is not legal here.
        :raises InvalidNotationError: if ``call`` is text that names no call.
        """
        _check_auction(auction)
        if not isinstance(call, Call):
            call = Call.from_str(str(call))
        if not auction.is_legal(call):
            so_far = " ".join(str(c) for c in auction.calls) or "no calls"
            raise IllegalCallError(f"{call} is not legal after {so_far}")
        key = (int(auction.dealer), auction.calls, call)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        ctx = Context(auction, self)
        exp = self._explain_in(ctx, call)
        self._remember(key, exp)
        return exp

    def explain_all(self, auction: Auction) -> List[Explanation]:
        """Explanations of every call of ``auction`` (finished or not), in order.

        :raises IllegalCallError: if ``auction`` is not an :class:`Auction` (as
            :meth:`choose` and :meth:`explain` say; text such as ``"1NT Pass"`` is read
            with :meth:`Auction.from_str`).
        """
        if not isinstance(auction, Auction):
            raise IllegalCallError(f"expected an Auction, got {type(auction).__name__}")
        out = []
        calls = auction.calls
        for i, call in enumerate(calls):
            key = (int(auction.dealer), calls[:i], call)
            exp = self._cache.get(key)
            if exp is None:
                prefix = Auction(auction.dealer, calls[:i])
                exp = self._explain_in(Context(prefix, self), call)
                self._remember(key, exp)
            out.append(exp)
        return out

    # -- machinery --------------------------------------------------------------------
    def _remember(self, key, exp):
        self._cache[key] = exp
        if len(self._cache) > self._cache_size:
            for _ in range(self._cache_size // 10):
                self._cache.popitem(last=False)

    def _indexed(self, rules: Sequence[Rule], length: int):
        """``(order, rule)`` of the rules that may match ``length`` calls since the opening
        (a pattern of that many tokens, or "any auction"), in their original order."""
        index = self._index.get(id(rules))
        if index is None:
            index = {}
            self._index[id(rules)] = index
        found = index.get(length)
        if found is None:
            found = []
            for order, rule in enumerate(rules):
                pats = rule._compiled  # type: ignore[attr-defined]
                if any(p is None or len(p.tokens) == length for p in pats):
                    found.append((order, rule))
            index[length] = found
        return found

    def _specific(self, ctx: Context) -> bool:
        """Whether some specific rule (group ``""``) has a matching auction pattern."""
        flag = getattr(ctx, "_specific", None)
        if flag is None:
            flag = any(True for _, r in self._indexed(self.rules, len(ctx.since))
                       if r.group == "" for _ in r.situations(ctx))
            ctx._specific = flag
        return flag

    def _instances(self, ctx: Context, rules: Sequence[Rule]):
        """Every ``(rule, call, bindings, constraints, order)`` the rules offer here.  They
        depend on the auction only (not on a hand or the vulnerability), so they are
        remembered per auction."""
        key = (id(rules), int(ctx.auction.dealer), ctx.calls)
        hit = self._instance_cache.get(key)
        if hit is not None:
            return hit
        out = []
        for order, rule in self._indexed(rules, len(ctx.since)):
            if rule.group == "generic" and self._specific(ctx):
                continue
            for call, b, cons in rule.instances(ctx):
                out.append((rule, call, b, cons, order))
        self._instance_cache[key] = out
        if len(self._instance_cache) > self._cache_size // 4:
            for _ in range(self._cache_size // 40):
                self._instance_cache.popitem(last=False)
        return out

    def _explain_in(self, ctx: Context, call: Call) -> Explanation:
        found = [i for i in self._instances(ctx, self.rules) if i[1] == call]
        if not found:
            found = [i for i in self._instances(ctx, self.defaults) if i[1] == call]
        if not found:
            return natural_explanation(ctx, call)
        return self._combine(ctx, call, found)

    def _combine(self, ctx: Context, call: Call, found) -> Explanation:
        found = sorted(found, key=lambda i: -i[0].priority)
        rule, _, b, cons, _ = found[0]
        envelope = cons
        alts = [cons]
        forcing = rule.forcing_in(ctx, b)
        for r, _, b2, c2, _ in found[1:]:
            envelope = envelope | c2
            if c2 not in alts:
                alts.append(c2)
        name = rule.name
        description = rule.describe(b)
        # every meaning the call may have here, so that the words stay true whichever rule
        # made it ("Major game: ...; or Competitive raise: ...")
        others = []
        for r, _, b2, _, _ in found[1:]:
            words = (r.name, r.describe(b2))
            if words != (name, description) and words not in others:
                others.append(words)
        if others:
            description = "; or ".join(
                [description] + [f"{n}: {d}" if d and d != n else n for n, d in others])
        artificial = rule.artificial
        alert = rule.alert
        text = compose_text(name, description, envelope, forcing, True, alert)
        return Explanation(call=call, name=name, constraints=envelope, forcing=forcing,
                           artificial=artificial, alert=alert, in_system=True,
                           description=description, text=text, alternatives=tuple(alts),
                           rules=tuple(dict.fromkeys(f[0].name for f in found)))

    def _choose(self, hand: Hand, auction: Auction, vulnerability) -> Tuple[Call, str]:
        _check_hand(hand)
        _check_auction(auction)
        vulnerability = check_vulnerability(vulnerability)
        ctx = Context(auction, self, vulnerability)
        ordinary = self._instances(ctx, self.rules)
        best = _best(hand, ctx, ordinary)
        if best is not None:
            return best[1], best[0].name
        made = {i[1] for i in ordinary}
        defaults = [i for i in self._instances(ctx, self.defaults) if i[1] not in made]
        best = _best(hand, ctx, defaults)
        if best is not None:
            return best[1], best[0].name
        return self._fallback(hand, ctx), "fallback"

    def _fallback(self, hand: Hand, ctx: Context) -> Call:
        """First legal call whose explanation the hand satisfies; Pass first unless forced,
        then bids from the cheapest.  Last resort: Pass, or when forced the cheapest bid in
        the longest suit."""
        legal = ctx.auction.legal_calls()
        forced = ctx.forced()
        bids = [c for c in legal if c.is_bid]
        order = ([] if forced else [PASS]) + bids + ([PASS] if forced else [])
        for call in order:
            if self.explain(ctx.auction, call).constraints.satisfied_by(hand):
                return call
        if not forced:
            return PASS
        longest = max(Suit, key=lambda s: (hand.length(s), int(s)))
        for c in bids:
            if c.strain == Strain(int(longest)):
                return c
        return bids[0] if bids else PASS


def _best(hand: Hand, ctx: Context, instances):
    best_key = None
    best = None
    for rule, call, b, cons, order in instances:
        if not cons.satisfied_by(hand):
            continue
        if rule.judge is not None and not rule.judge(hand, ctx, b):
            continue
        pref = rule.prefer(hand, ctx, b) if rule.prefer is not None else 0
        key = (rule.priority, pref, -order)
        if best_key is None or key > best_key:
            best_key = key
            best = (rule, call, b, cons)
    return best


def natural_explanation(ctx: Context, call: Call) -> Explanation:
    """The natural reading of a call the system does not make here."""
    cons = HandConstraints()
    if call.is_pass:
        name, desc = "Pass", "natural; no particular meaning here"
    elif call.is_double:
        name, desc = "Double", "natural; for penalty"
    elif call.is_redouble:
        name, desc = "Redouble", "natural; expects to make the contract"
    elif call.strain == Strain.NOTRUMP:
        name, desc = f"{call.level}NT", "natural; suggests notrump"
    else:
        suit = Suit(int(call.strain))
        name = f"{call.level}{suit.symbol}"
        ours = [s for s in ctx.bid_strains(ctx.seat) if s != Strain.NOTRUMP]
        theirs = ctx.opponents_suits()
        if suit in theirs and call.strain not in ours:
            desc = f"natural in an opponent's suit ({suit.symbol})"
        else:
            desc = f"natural; shows {suit.symbol}"
            cons = HandConstraints().with_length(suit, 4 if call.strain not in ours else 3)
    text = compose_text(name, desc, cons, Forcing.NON_FORCING, in_system=False)
    return Explanation(call=call, name=name, constraints=cons, forcing=Forcing.NON_FORCING,
                       in_system=False, description=desc, text=text, alternatives=(cons,))
