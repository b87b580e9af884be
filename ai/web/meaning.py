"""The explanation of a call in any language of the page, composed from its structured
meaning -- never a translated English sentence.

An :class:`ai.bidding.Explanation` carries the parts: the rule's ``name``, its
``description`` (the rule's meaning with the suits filled in; where several rules make the
call, their meanings joined as ``"meaning; or Other rule: its meaning"``), the hand
``constraints`` (:class:`ai.constraints.HandConstraints`), the ``forcing`` status, and the
``alert`` and ``in_system`` flags.  Each part is translated on its own:

* the rule's name and meaning are catalog messages (:func:`ai.web.i18n.system_messages`);
  a meaning is matched back to its template (``"five or more {M}"``) so that the catalog
  holds one message per rule, and the suit symbols are put back into the translation;
* the hand constraints are rendered by per-language templates (``"{lo}-{hi} HCP"``,
  ``"{n}+ {suit}"``, ...), the forcing status is a catalog message;
* the parts are joined as :func:`ai.bidding.explanation.compose_text` joins them in
  English (``name: meaning; hand; forcing``).

In English the composed text is exactly the bidding system's own ``text`` (a test checks
it on many auctions), so the other languages say the same things.

>>> from ai.bidding import StandardAmerican
>>> from ddsolver.auction import Auction
>>> exp = StandardAmerican().explain(Auction("N", ["1NT", "Pass"]), "2C")
>>> explain_in(exp, "de")["text"]
'Stayman: fragt nach einer Vierer-Oberfarbe; 8+ Punkte; forcierend'
"""

from __future__ import annotations

import functools
import re
from typing import Dict, List, Tuple

from ai.constraints import MAX_HCP
from ddsolver.auction import Call
from ddsolver.cards import Strain, Suit
from ddsolver.errors import BridgeError

from .i18n import N_, system_messages, translations

__all__ = ["FORCING", "call_text", "explain_in", "hand_parts", "Localizer"]

_SUITS_TEXT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SYMBOLS = "♠♥♦♣"

#: The forcing statuses (``Forcing.value``) as catalog messages.
FORCING = {
    "non-forcing": N_("non-forcing"),
    "forcing": N_("forcing"),
    "game forcing": N_("game forcing"),
}

# TRANSLATORS: the words of the calls (the bidding box and the auction)
_CALL_WORDS = {"Pass": N_("Pass"), "X": N_("Double"), "XX": N_("Redouble")}
# TRANSLATORS: notrump in a bid ("1NT"); German and Spanish write SA
_NT = N_("NT")
# TRANSLATORS: short forms of double and redouble in the auction
_SHORT = {"X": N_("X"), "XX": N_("XX")}


@functools.lru_cache(maxsize=1)
def _templates() -> Tuple[Dict[str, str], List[Tuple[re.Pattern, str]]]:
    """The meanings the system can give: exact texts, and templates with suit fields as
    regular expressions (longest first)."""
    exact: Dict[str, str] = {}
    patterns = []
    for msgid, _ in system_messages():
        exact.setdefault(msgid, msgid)
        if not re.search(r"\{[A-Za-z]+\}", msgid):
            continue
        seen = set()
        regex = ""
        for piece in re.split(r"(\{[A-Za-z]+\})", msgid):
            m = re.fullmatch(r"\{([A-Za-z]+)\}", piece)
            if m is None:
                regex += re.escape(piece)
            elif m.group(1) in seen:
                regex += f"(?P={m.group(1)})"
            else:
                seen.add(m.group(1))
                regex += f"(?P<{m.group(1)}>[{_SYMBOLS}]|notrump)"
        patterns.append((re.compile(regex + r"\Z"), msgid))
    patterns.sort(key=lambda p: -len(p[1]))
    return exact, patterns


def _rule_names() -> List[str]:
    return sorted({m for m, note in system_messages() if note.startswith("bidding: the name")},
                  key=len, reverse=True)


class Localizer:
    """Renders explanations, calls and hand constraints in one language.

    :param lang: a language code (``"de"``); English needs no catalog.
    :ivar missing: the English messages this language lacked so far (a translator's
        to-do list; the tests require it to stay empty).
    """

    def __init__(self, lang: str):
        self.lang = lang
        self._tr = translations(lang)
        self.missing: List[str] = []

    # -- catalog -------------------------------------------------------------------------
    def _(self, msgid: str) -> str:
        out = self._tr.gettext(msgid)
        if out == msgid and self.lang != "en" and not self._same_ok(msgid):
            self.missing.append(msgid)
        return out

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._tr.ngettext(singular, plural, n)

    def _same_ok(self, msgid: str) -> bool:
        # a translation equal to the English text (a proper name such as "Stayman") is a
        # translation: only a message absent from the catalog counts as missing
        catalog = getattr(self._tr, "_catalog", None)
        return catalog is not None and msgid in catalog

    # -- calls -----------------------------------------------------------------------------
    def call(self, call, short: bool = False) -> str:
        """A call in this language: ``1♠``, ``3NT``/``3SA``, ``Pass``/``Passe``, and
        doubles as words (or ``X``/``XX`` with ``short``)."""
        if not isinstance(call, Call):
            call = Call.from_str(str(call))
        if call.is_bid:
            if call.strain == Strain.NOTRUMP:
                return f"{call.level}{self._(_NT)}"
            return f"{call.level}{Suit(int(call.strain)).symbol}"
        key = str(call)
        if short and key in _SHORT:
            return self._(_SHORT[key])
        return self._(_CALL_WORDS[key])

    # -- hands -----------------------------------------------------------------------------
    def hand(self, constraints) -> List[str]:
        """The hand constraints as phrases, in the order of
        :meth:`ai.constraints.HandConstraints.describe` (points, shape, spades to clubs,
        stoppers, aces)."""
        _ = self._
        parts = []
        lo, hi = constraints.hcp
        if lo > 0 and hi < MAX_HCP:
            parts.append(_("{n} HCP").format(n=lo) if lo == hi else
                         _("{lo}-{hi} HCP").format(lo=lo, hi=hi))
        elif lo > 0:
            parts.append(_("{lo}+ HCP").format(lo=lo))
        elif hi < MAX_HCP:
            parts.append(_("at most {hi} HCP").format(hi=hi))
        if constraints.balanced is True:
            parts.append(_("balanced"))
        elif constraints.balanced is False:
            parts.append(_("unbalanced"))
        for suit in _SUITS_TEXT_ORDER:
            a, b = constraints.lengths[suit]
            if a == 0 and b == 13:
                continue
            sym = suit.symbol
            if a == b:
                parts.append(_("exactly {n} {suit}").format(n=a, suit=sym) if a else
                             _("void in {suit}").format(suit=sym))
            elif b == 13:
                parts.append(_("{lo}+ {suit}").format(lo=a, suit=sym))
            elif a == 0:
                parts.append(_("at most {hi} {suit}").format(hi=b, suit=sym))
            else:
                parts.append(_("{lo}-{hi} {suit}").format(lo=a, hi=b, suit=sym))
        if constraints.stoppers:
            syms = " ".join(s.symbol for s in _SUITS_TEXT_ORDER if s in constraints.stoppers)
            parts.append(_("stopper in {suits}").format(suits=syms))
        if constraints.aces is not None:
            aces = sorted(constraints.aces)
            if len(aces) == 1:
                parts.append(self.ngettext("{n} ace", "{n} aces", aces[0]).format(n=aces[0]))
            else:
                choices = str(aces[0])
                for a in aces[1:]:
                    choices = _("{a} or {b}").format(a=choices, b=a)
                parts.append(_("{choices} aces").format(choices=choices))
        return parts

    # -- meanings ----------------------------------------------------------------------------
    def meaning(self, text: str) -> str:
        """One rule meaning (suits filled in) in this language."""
        exact, patterns = _templates()
        if text in exact:
            return self._(text)
        for regex, msgid in patterns:
            m = regex.match(text)
            if m:
                return self._(msgid).format(**m.groupdict())
        if self.lang != "en":
            self.missing.append(text)
        return text

    def name(self, name: str) -> str:
        """A rule's name, or a call named by the natural reading (``"1♠"``, ``"3NT"``)."""
        try:
            call = Call.from_str(name)
        except (BridgeError, ValueError):
            call = None
        if call is not None and call.is_bid:
            return self.call(call)
        return self._(name)

    def description(self, exp) -> str:
        """The explanation's description: its meanings, each translated."""
        text = exp.description
        if not text:
            return ""
        pieces = text.split("; or ")
        out = [self.meaning(pieces[0])]
        names = _rule_names()
        for piece in pieces[1:]:
            for n in names:
                if piece == n:
                    out.append(self.name(n))
                    break
                if piece.startswith(n + ": "):
                    out.append(self._("{name}: {meaning}").format(
                        name=self.name(n), meaning=self.meaning(piece[len(n) + 2:])))
                    break
            else:
                out.append(self.meaning(piece))
        return self._("; or ").join(out)

    def explanation(self, exp) -> dict:
        """The explanation as the page shows it (see :func:`explain_in`)."""
        _ = self._
        name = self.name(exp.name) if exp.name else ""
        desc = self.description(exp)
        hand = self.hand(exp.constraints)
        forcing = _(FORCING[exp.forcing.value])
        head = name
        if desc and exp.description != exp.name:
            head = _("{name}: {meaning}").format(name=name, meaning=desc) if name else desc
        parts = [head] + ([", ".join(hand)] if hand else []) + [forcing]
        if exp.alert:
            parts.append(_("alert"))
        text = "; ".join(p for p in parts if p)
        if not exp.in_system:
            text = _("not in the system; {text}").format(text=text)
        return {
            "call": str(exp.call),
            "call_text": self.call(exp.call),
            "name": name,
            "description": desc,
            "hand": hand,
            "forcing": exp.forcing.value,
            "forcing_text": forcing,
            "alert": bool(exp.alert),
            "artificial": bool(exp.artificial),
            "in_system": bool(exp.in_system),
            "text": text,
            "constraints": exp.constraints.to_dict(),
        }


@functools.lru_cache(maxsize=16)
def _localizer(lang: str) -> Localizer:
    return Localizer(lang)


def explain_in(exp, lang: str) -> dict:
    """An :class:`ai.bidding.Explanation` in ``lang``: ``{"call", "call_text", "name",
    "description", "hand": [phrases], "forcing" (the English status key),
    "forcing_text", "alert", "artificial", "in_system", "text" (the whole sentence),
    "constraints" (the structured form, :meth:`HandConstraints.to_dict`)}``.

    :raises ValueError: for a malformed language code.
    """
    return _localizer(lang).explanation(exp)


def call_text(call, lang: str, short: bool = False) -> str:
    """A call (a :class:`~ddsolver.auction.Call` or its text) in ``lang``."""
    return _localizer(lang).call(call, short)


def hand_parts(constraints, lang: str) -> List[str]:
    """Hand constraints as phrases in ``lang``."""
    return _localizer(lang).hand(constraints)
