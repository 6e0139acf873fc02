"""The game's data as plain, immutable objects. No I/O here."""
from __future__ import annotations

from dataclasses import dataclass, field

KINDS = ("unit", "doctrine", "tactic")
STATS = ("atk", "def", "lp")
WHOSE = ("own", "opponent", "attacker")
WHEN = ("always", "in-combat", "per-turn")
COMMANDER_MARK = "\u265a"  # ♚, printed by a Commander's name on its card and in the card reference


@dataclass(frozen=True)
class BonusPart:
    """One part of a Doctrine's or Tactic's bonus, e.g. opponent −1 DEF."""

    stat: str  # atk | def | lp
    amount: int  # signed
    whose: str = "own"  # own | opponent | attacker
    when: str = "always"  # always | in-combat | per-turn


@dataclass(frozen=True)
class Faction:
    id: str
    code: str
    colour: str  # "#rrggbb"
    accent: str
    emblem: str
    unlock_games: int


@dataclass(frozen=True)
class Card:
    id: str
    code: str
    faction: str
    kind: str  # unit | doctrine | tactic
    copies: int
    level: int | None = None
    atk: int | None = None
    def_: int | None = None
    energy: int | None = None
    type: str | None = None  # units: a unit type id; doctrines/tactics: None
    traits: tuple[str, ...] = ()
    commander: bool = False
    terrain: bool = False
    bonus: tuple[BonusPart, ...] = ()
    art: str | None = None  # a picture named in cards.yaml, relative to the game directory
    art_focus: tuple[float, float] | None = None  # the point (0–1, from the top left) kept in view when cropping
    art_fit: str | None = None  # cover | contain: overrides the template's
    revised: str | None = None  # the version this card was last changed in (cards.yaml `revised:`), printed by its code

    @property
    def is_unit(self) -> bool:
        return self.kind == "unit"


@dataclass(frozen=True)
class Rules:
    """Rule constants from cards.yaml; also the rulebook's {placeholders}."""

    values: dict = field(default_factory=dict)

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "values":
            raise AttributeError(name)
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(name) from None

    def energy_max_on(self, turn: int) -> int:
        """The energy maximum on `turn` (1-based): energy_start, +1 each turn from
        energy_growth_turn, never above energy_max."""
        grown = max(0, turn - self.values["energy_growth_turn"] + 1)
        return min(self.values["energy_max"], self.values["energy_start"] + grown)

    def placeholders(self, factions: dict[str, Faction]) -> dict[str, int]:
        """Every number the rulebook may name as {placeholder}."""
        out = {k: v for k, v in self.values.items() if isinstance(v, int)}
        out["allied_primary"], out["allied_ally"] = self.values["allied"]
        out["coalition_primary"], out["coalition_secondary"], out["coalition_tertiary"] = self.values["coalition"]
        for faction in factions.values():
            out[f"unlock_{faction.id}"] = faction.unlock_games
        return out


def version_text(version: str) -> str:
    """A version as the small print's "v{version}" takes it: "2" and "v2" → "2"."""
    return version[1:] if version[:1] in "vV" and version[1:2].isdigit() else version


def format_amount(amount: int) -> str:
    """+1 / −1 with a real minus sign."""
    return f"+{amount}" if amount > 0 else f"\u2212{abs(amount)}"
