"""Explanations of calls: structured meaning plus an English sentence."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Tuple

from ai.constraints import HandConstraints

__all__ = ["Explanation", "Forcing"]


class Forcing(Enum):
    """How far a call obliges partner to keep bidding."""

    NON_FORCING = "non-forcing"
    FORCING = "forcing"
    GAME_FORCING = "game forcing"

    @property
    def is_forcing(self) -> bool:
        """True for :attr:`FORCING` (one round) and :attr:`GAME_FORCING`."""
        return self is not Forcing.NON_FORCING

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Explanation:
    """The meaning of one call in one auction.

    :ivar call: the call explained.
    :ivar name: short name of the meaning, e.g. ``"Stayman"`` or ``"1NT opening"``.
    :ivar constraints: what the call promises about the caller's hand
        (:class:`HandConstraints`); this is exactly what :mod:`ai.inference` uses.
    :ivar forcing: :class:`Forcing` status.
    :ivar artificial: the call says nothing natural about its strain (Stayman, transfers,
        Blackwood answers, the 2♣ opening, takeout doubles...).
    :ivar alert: the call is alertable under common regulations.
    :ivar in_system: ``False`` for a call the system never makes in this auction (the
        explanation then gives the natural reading).
    :ivar description: the meaning in words without the hand details
        (``"asks for a four-card major"``).
    :ivar text: the complete English sentence, e.g.
        ``"Stayman: asks for a four-card major; 8+ HCP; forcing"``.
    :ivar alternatives: where several rules of the system make the same call here, the
        constraints of each (their envelope is :attr:`constraints`).
    """

    call: object
    name: str
    constraints: HandConstraints
    forcing: Forcing = Forcing.NON_FORCING
    artificial: bool = False
    alert: bool = False
    in_system: bool = True
    description: str = ""
    text: str = ""
    alternatives: Tuple[HandConstraints, ...] = field(default_factory=tuple)
    rules: Tuple[str, ...] = field(default_factory=tuple)

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict:
        """JSON-ready form of the explanation."""
        return {
            "call": str(self.call),
            "name": self.name,
            "text": self.text,
            "description": self.description,
            "forcing": self.forcing.value,
            "artificial": self.artificial,
            "alert": self.alert,
            "in_system": self.in_system,
            "constraints": self.constraints.to_dict(),
        }


def compose_text(name: str, description: str, constraints: HandConstraints,
                 forcing: Forcing, in_system: bool = True,
                 alert: bool = False) -> str:
    """Build the English sentence of an explanation from its parts."""
    head = name
    if description and description != name:
        head = f"{name}: {description}" if name else description
    parts = [head]
    hand = constraints.describe()
    if hand:
        parts.append(hand)
    parts.append(str(forcing))
    if alert:
        parts.append("alert")
    text = "; ".join(p for p in parts if p)
    if not in_system:
        text = "not in the system; " + text
    return text
