"""Card and faction names as players write them, in any language: the one name index
behind decklists, `--faction` (Project.check_faction) and `ppgen preview`.

Resolution order (decisions §4, field notes): id or collector code, the exact
name in any language, the normalised name (NFKC, case, spacing and
punctuation ignored), and only then a fuzzy match — offered as "did you
mean", never taken silently. A name that fits several cards is ambiguous and
reported with every candidate.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field

FUZZY_CUTOFF = 0.6
MAX_SUGGESTIONS = 3


def nfkc(text: str) -> str:
    """Full-width digits and letters to ASCII, compatibility forms folded."""
    return unicodedata.normalize("NFKC", text)


def normalise(text: str) -> str:
    """The comparison form of a name: NFKC, casefolded, without spaces, punctuation or symbols.

    "Leonidas, King of Sparta", "leonidas king of sparta" and "ＬＥＯＮＩＤＡＳ・King-of-Sparta ♚"
    all become "leonidaskingofsparta".
    """
    folded = nfkc(text).casefold()
    return "".join(ch for ch in folded if unicodedata.category(ch)[0] not in "PZSC")


@dataclass(frozen=True)
class Match:
    """The outcome of looking a name up."""

    ids: tuple[str, ...]  # one id: found; several: ambiguous; none: unknown
    suggestions: tuple[tuple[str, str], ...] = ()  # (id, language) of close names, when unknown

    @property
    def found(self) -> str | None:
        return self.ids[0] if len(self.ids) == 1 else None


@dataclass
class NameIndex:
    """Every way of writing a card (or faction): ids, codes, names in every language."""

    exact: dict[str, set[str]] = field(default_factory=dict)  # NFKC text → ids
    normal: dict[str, set[str]] = field(default_factory=dict)  # normalised text → ids
    language: dict[str, str] = field(default_factory=dict)  # normalised text → language it came from

    def add(self, text: str, item_id: str, lang: str = "") -> None:
        self.exact.setdefault(nfkc(text).strip(), set()).add(item_id)
        key = normalise(text)
        if key:
            self.normal.setdefault(key, set()).add(item_id)
            self.language.setdefault(key, lang)

    def lookup(self, text: str) -> Match:
        for table, key in ((self.exact, nfkc(text).strip()), (self.normal, normalise(text))):
            ids = table.get(key)
            if ids:
                return Match(tuple(sorted(ids)))
        both = split_code(text)
        if both:  # "Name (CODE)": the code decides; a name naming another card makes it ambiguous
            by_code = self.normal.get(normalise(both[1]), set())
            if len(by_code) == 1:
                by_name = self.lookup(both[0]).ids if both[0] else ()
                return Match(tuple(sorted(by_code | set(by_name))))
        return Match((), self.suggest(text))

    def suggest(self, text: str) -> tuple[tuple[str, str], ...]:
        """Up to three close names, each of a different card, with the language they are written in.

        Names that contain what was written come first ("Trajan" → both Trajans), then
        difflib's closest matches.
        """
        key = normalise(text)
        if not key:
            return ()
        containing = sorted((k for k in self.normal if key in k and len(key) >= 3), key=len)
        close = difflib.get_close_matches(key, list(self.normal), n=12, cutoff=FUZZY_CUTOFF)
        out: list[tuple[str, str]] = []
        for found in containing + close:
            for item_id in sorted(self.normal[found]):
                if item_id not in (i for i, _ in out):
                    out.append((item_id, self.language[found]))
        return tuple(out[:MAX_SUGGESTIONS])


WORD_KEYS = ("deck.field.", "kind.", "label.commander", "label.terrain", "faction.")  # words decklists use, by key prefix


@dataclass
class Names:
    """The card and faction indexes of one project, and `words`: the translations, in every
    language, of the words a decklist may hold besides names (field names, section headers):
    locale key → its translated texts (WORD_KEYS)."""

    cards: NameIndex
    factions: NameIndex
    words: dict[str, list[str]] = field(default_factory=dict)


def names_for(project) -> Names:
    """The name indexes of the card database and every locale: built once per project, and kept
    on disk (read/cache.py) until the card database, a locale file or ppgen changes, so that a
    decklist is checked without parsing every locale file."""
    return project.cached("deck-names", lambda: _stored_names(project))


def _stored_names(project) -> Names:
    from . import cache

    d = project.dir
    key = cache.files_key(d, [d.cards, d.config, *(d.locale(lang) for lang in project.languages)], repr(project.languages))
    stored = cache.recall("names", key, d.label)
    if stored is not None:
        try:
            return Names(*(NameIndex({k: set(v) for k, v in s["exact"].items()}, {k: set(v) for k, v in s["normal"].items()},
                                     s["language"]) for s in (stored["cards"], stored["factions"])), stored["words"])
        except (KeyError, TypeError, AttributeError):
            pass  # not what this version stores: made again
    names = _index_names(project)
    indexes = {part: {"exact": {k: sorted(v) for k, v in index.exact.items()},
                      "normal": {k: sorted(v) for k, v in index.normal.items()}, "language": index.language}
               for part, index in (("cards", names.cards), ("factions", names.factions))}
    cache.keep("names", key, {**indexes, "words": names.words}, d.label)
    return names


def _index_names(project) -> Names:
    cards, factions, words = NameIndex(), NameIndex(), {}
    game = project.game
    for card in game.cards:
        cards.add(card.id, card.id)
        cards.add(card.code, card.id)
        prefix, number = card.code.rsplit("-", 1)
        cards.add(f"{prefix}-{int(number)}", card.id)  # ROM-1 as well as ROM-01
    for faction in game.factions.values():
        factions.add(faction.id, faction.id)
        factions.add(faction.code, faction.id)
    for lang in project.languages:
        loc = project.locale(lang)
        for card in game.cards:
            key = f"card.{card.id}.name"
            if loc.is_translated(key):
                cards.add(loc.entries[key].text, card.id, lang)
        for faction in game.factions.values():
            key = f"faction.{faction.id}"
            if loc.is_translated(key):
                factions.add(loc.entries[key].text, faction.id, lang)
        for key in loc.keys():
            if key.startswith(WORD_KEYS) and loc.is_translated(key):
                words.setdefault(key, []).append(loc.entries[key].text)
    return Names(cards, factions, words)


_NAME_AND_CODE = re.compile(r"^(?P<name>.*?)(?<!\s)\s*[(\[]\s*(?P<code>[A-Za-z]{2,5}\s*-?\s*\d{1,3})\s*[)\]]$")


def split_code(text: str) -> tuple[str, str] | None:
    """'Hastati Line (ROM-01)' → ('Hastati Line', 'ROM-01'): the form ppgen's own messages use."""
    m = _NAME_AND_CODE.match(nfkc(text).strip())
    return (m["name"], m["code"]) if m else None
