"""What a decklist says, and what is wrong with it: plain data, no I/O.

A `Deck` is the decklist as read: metadata (name, primary faction, games
played) and one `Entry` per line (or YAML key) that names a card, resolved to
a card id when the name is known. An `Issue` is one finding about the deck:
a stable code, a severity, the values its message needs (`params`), the lines
and cards involved, and an optional hint. Messages are words, so they are made
per language when a report is shown (see report.py); names inside them are
`Ref`s, turned into the reader's language there too.
"""
from __future__ import annotations

from dataclasses import dataclass, field

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Ref:
    """A card or faction named in a message; shown in the reader's language."""

    kind: str  # "card" | "faction" | "deck-type"
    id: str
    lang: str | None = None  # show in this language rather than the reader's (name suggestions)
    with_code: bool = False  # add the collector code: "Testudo (ROM-15)"
    count: int = 0  # copies in the deck, shown when more than 1: "Fortified Camp ×2"
    with_faction: bool = False  # add the card's faction: "Narrow Pass (Sparta)"


@dataclass(frozen=True)
class Issue:
    """One finding about a decklist. The message template is `deck.<code>` in the locales."""

    code: str
    severity: str  # error | warning | info
    params: dict = field(default_factory=dict, compare=False)
    line: int = 0  # where to point: the first line involved (0: the whole deck)
    col: int = 0
    lines: tuple[int, ...] = ()  # every decklist line involved
    cards: tuple[str, ...] = ()  # ids of the cards involved
    hint: str | None = None  # locale key of the fix, e.g. "deck.hint.remove-cards"
    hint_params: dict = field(default_factory=dict, compare=False)

    @property
    def key(self) -> str:
        """The locale key of the message template."""
        return f"deck.{self.code}"


@dataclass(frozen=True)
class Entry:
    """One line of a decklist that names a card."""

    line: int
    col: int
    name: str  # as written (NFKC-normalised, comments and count removed)
    count: int
    card: str | None  # the card id; None when the name is unknown or ambiguous


@dataclass
class Deck:
    """A decklist as read from a file (text or YAML)."""

    file: str  # as shown to the user
    format: str = "text"  # text | yaml
    name: str | None = None
    primary: str | None = None  # faction id, when declared and known
    primary_declared: bool = False  # a primary line exists (known faction or not)
    primary_at: tuple[int, int] = (0, 0)
    games: int | None = None
    games_at: tuple[int, int] = (0, 0)
    entries: list[Entry] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)  # found while reading

    @property
    def cards(self) -> dict[str, int]:
        """Card id → copies, summed over every line naming the card (first-seen order)."""
        out: dict[str, int] = {}
        for e in self.entries:
            if e.card is not None:
                out[e.card] = out.get(e.card, 0) + e.count
        return out

    @property
    def total(self) -> int:
        """Every card the list counts, unknown names included."""
        return sum(e.count for e in self.entries)

    @property
    def unresolved(self) -> list[Entry]:
        return [e for e in self.entries if e.card is None and e.count > 0]

    def lines_of(self, card_id: str) -> tuple[int, ...]:
        return tuple(e.line for e in self.entries if e.card == card_id)

    def card_list(self, game) -> list[tuple]:
        """(Card, copies) in card-database order: what a build prints."""
        counts = self.cards
        return [(card, counts[card.id]) for card in game.cards if counts.get(card.id)]
