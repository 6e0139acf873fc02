"""A loaded game directory: card database, configuration and locales.

This is the library's front door::

    import ppgen
    project = ppgen.load()                 # finds the game directory upward from cwd
    ja = project.locale("ja")
    for card in project.game.cards:
        print(card.code, ja.get(f"card.{card.id}.name"))
    rows = project.card_rows("ko")         # what `ppgen cards --format json` prints
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TypeVar

from .errors import DataError, Problem, UsageError
from .read.config import Config, LanguageConfig, load_config
from .read.game import Game, load_game
from .read.gamedir import GameDir, find_game_dir
from .read.locale import Locale, parse_locale
from .read.model import BonusPart, Card, format_amount, version_text
from .read.schema import did_you_mean

T = TypeVar("T")


@dataclass
class Project:
    dir: GameDir
    game: Game
    config: Config
    _locales: dict[str, Locale] = field(default_factory=dict, repr=False)
    _derived: dict[str, object] = field(default_factory=dict, repr=False)

    def cached(self, name: str, make: Callable[[], T]) -> T:
        """What is read or built from this game's files once per project (fonts, templates,
        name indexes): `make()` the first time, the same object after."""
        if name not in self._derived:
            self._derived[name] = make()
        return self._derived[name]

    @property
    def languages(self) -> list[str]:
        """Languages with a locale file, source language first."""
        found = self.dir.available_languages()
        src = self.config.source_language
        return ([src] if src in found else []) + [lang for lang in found if lang != src]

    def missing_locales(self) -> list[str]:
        """The languages ppgen.yaml sets up whose locale file is missing (deleted, not checked out)."""
        return [lang for lang in self.config.languages if lang not in self.languages]

    def missing_locale(self, lang: str) -> str:
        shown = self.dir.show(self.dir.locale(lang))
        return f"'{lang}' is set up in ppgen.yaml but {shown} is missing: restore it, or start it with `ppgen i18n sync --lang {lang}`"

    def every_language(self) -> list[str]:
        """Every language (`--lang all`), or a UsageError when one set up has lost its locale file."""
        for lang in self.missing_locales():
            raise UsageError(self.missing_locale(lang))
        return list(self.languages)

    def check_language(self, lang: str) -> str:
        """`lang` when it is a language of this game; a UsageError otherwise, with the code meant
        when `lang` is another name of a language (jp, japanese, 日本語: "did you mean 'ja'?")."""
        if lang not in self.languages:
            if lang in self.config.languages:
                raise UsageError(self.missing_locale(lang))
            meant = self.find_language(lang)
            hint = f"; did you mean '{meant}' ({self.config.languages[meant].name})?" if meant else did_you_mean(lang, self.languages)
            raise UsageError(f"unknown language '{lang}'{hint} (available: {', '.join(self.languages)})")
        return lang

    def find_language(self, text: str) -> str | None:
        """The language `text` names, by any of its names in ppgen.yaml (code, own name, PO
        language, aliases) or as a locale written like ja_JP, zh-Hans, ko_KR.UTF-8; None if none."""
        from .read.names import normalise

        names = self.cached("language-names", lambda: {normalise(name): lang.code for lang in self.config.languages.values()
                                                         for name in lang.names if lang.code in self.languages})
        written = re.split(r"[.@]", str(text).strip())[0]
        for candidate in (written, re.split(r"[-_\s]", written)[0]):
            found = names.get(normalise(candidate))
            if found:
                return found
        return None

    def language(self, lang: str) -> LanguageConfig:
        """The configuration (name, font chains) of a language."""
        self.check_language(lang)
        try:
            return self.config.languages[lang]
        except KeyError:
            raise UsageError(f"language '{lang}' has a locale file but no fonts in {self.config.file}") from None

    def locale(self, lang: str) -> Locale:
        """The locale of `lang`, falling back to the source language; loaded once."""
        if lang not in self._locales:
            self.check_language(lang)
            src = self.config.source_language
            source = None if lang == src else self.locale(src)
            loc = parse_locale(self.dir.yaml(self.dir.locale(lang), plain_strings=True), lang, source)
            self._check_card_keys(loc)
            self._locales[lang] = loc
        return self._locales[lang]

    def load_languages(self, langs) -> None:
        """Parse the fonts and locales of `langs` now, once: before worker processes are forked
        (write/workers.py), so that each inherits them parsed instead of parsing them again."""
        self.fonts.load(langs)
        for lang in langs:
            self.locale(lang)

    def _check_card_keys(self, loc: Locale) -> None:
        problems: list[Problem] = []
        ids = [c.id for c in self.game.cards]
        for key, entry in loc.entries.items():
            if key.startswith("card."):
                card_id = key.split(".")[1]
                if not self.game.has_card(card_id):
                    problems.append(
                        Problem(loc.file, entry.line, entry.col, f"'{key}' names an unknown card '{card_id}'{did_you_mean(card_id, ids)}", "unknown-card")
                    )
        if loc.source is None:
            for card in self.game.cards:
                for part in ("name", "effect"):
                    if f"card.{card.id}.{part}" not in loc.entries:
                        problems.append(Problem(loc.file, 0, 0, f"the source language must have 'card.{card.id}.{part}'", "missing"))
        if problems:
            raise DataError(problems)

    @property
    def fonts(self):
        """The FontBook of this game (fonts registered lazily, on first use)."""
        from .typeset.fonts import FontBook

        return self.cached("fonts", lambda: FontBook(self.dir.fonts, self.config.languages, self.config))

    @property
    def glossary(self):
        """locales/glossary.yaml, read and checked once (an empty glossary when there is none)."""
        from .read.glossary import load_glossary

        languages = sorted(set(self.languages) | set(self.config.languages))
        return self.cached("glossary", lambda: load_glossary(self.dir.glossary, self.dir.root, languages, self.config.source_language))

    def phrases(self, lang: str):
        """What the text engine keeps whole in `lang` and where its compounds break (the glossary's
        keywords, unbreakable phrases and breaks), for typeset.text.Style(phrases=...)."""
        from .typeset.phrases import Phrases

        def make():
            g, src = self.glossary, self.config.source_language
            return Phrases(g.unbreakable_in(lang, src), g.breaks.get(lang, ()))

        return self.cached(f"phrases:{lang}", make)

    def twin(self) -> "Project":
        """This project for work done in another thread at the same time (checks, a part drawn
        beside the cards): the same card database, configuration, locale texts, fonts and
        templates as read, but locales of its own — what a drawing records in them (the texts
        that fell back to English) is its own — and caches of its own."""
        from dataclasses import replace

        twin = Project(self.dir, self.game, self.config, _derived=dict(self._derived))
        src = self.config.source_language
        source = self._locales.get(src)
        if source is not None:
            twin._locales[src] = replace(source, fallbacks=set(), broken={})
        for lang, loc in self._locales.items():
            if lang != src:
                twin._locales[lang] = replace(loc, source=twin._locales.get(src, loc.source), fallbacks=set(), broken={})
        return twin

    def reloaded(self, changed) -> "Project":
        """This game after the files `changed` were edited (see `reloaded`)."""
        return reloaded(self, changed)

    # ── localized views ────────────────────────────────────────────────
    def card_name(self, card: Card, lang: str) -> str:
        return self.locale(lang).get(f"card.{card.id}.name")

    def card_effect(self, card: Card, lang: str) -> str:
        return self.locale(lang).get(f"card.{card.id}.effect")

    def type_line(self, card: Card, lang: str) -> str:
        """e.g. "Infantry · Mercenary", "Doctrine · Terrain"."""
        loc = self.locale(lang)
        parts = [loc.get(f"type.{card.type}") if card.is_unit else loc.get(f"kind.{card.kind}")]
        parts += [loc.get(f"trait.{t}") for t in card.traits]
        if card.terrain:
            parts.append(loc.get("label.terrain"))
        return loc.get("label.type-separator").join(parts)

    def small_print(self, card: Card, lang: str) -> str:
        """The collector code, with the card's version when cards.yaml gives one: "ROM-03 · v2"."""
        if card.revised is None:
            return card.code
        return self.locale(lang).format("label.code-revised", code=card.code, version=version_text(card.revised))

    def bonus_text(self, card: Card, lang: str) -> str:
        """The bonus badge text, built from structured data (numbers never from translations)."""
        loc = self.locale(lang)
        return loc.get("bonus.separator").join(bonus_part_text(loc, b) for b in card.bonus)

    def card_rows(self, lang: str, faction: str | tuple[str, ...] | list[str] | None = None) -> list[dict]:
        """One dict per card: the stable JSON interface of `ppgen cards`; only the cards of
        `faction` (a faction, or several) when given."""
        rows = []
        chosen = [faction] if isinstance(faction, str) else list(faction or ())
        factions = {self.check_faction(f) for f in chosen if f}
        for card in self.game.cards:
            if factions and card.faction not in factions:
                continue
            rows.append(
                {
                    "id": card.id,
                    "code": card.code,
                    "faction": card.faction,
                    "faction_name": self.locale(lang).get(f"faction.{card.faction}"),
                    "kind": card.kind,
                    "name": self.card_name(card, lang),
                    "type": self.type_line(card, lang),
                    "type_id": card.type,
                    "traits": list(card.traits),
                    "level": card.level,
                    "atk": card.atk,
                    "def": card.def_,
                    "energy": card.energy,
                    "copies": card.copies,
                    "commander": card.commander,
                    "terrain": card.terrain,
                    "bonus": self.bonus_text(card, lang) if card.bonus else None,
                    "bonus_data": [b.__dict__ for b in card.bonus] if card.bonus else None,
                    "effect": self.card_effect(card, lang),
                }
            )
        return rows

    def check_faction(self, faction: str) -> str:
        """The id of the faction `faction` names — its id, code (ROM) or name in any language
        (Rome, ローマ, 로마, 罗马), as decklists name it (read/names.py) — or a UsageError
        with "did you mean"."""
        from .read.names import names_for

        match = names_for(self).factions.lookup(faction)
        if match.found:
            return match.found
        ids = list(self.game.factions)
        close = [(f, lang) for f, lang in match.suggestions]
        if close:
            shown = [f"'{self.locale(lang).get(f'faction.{f}') if lang else f}'" + (f" ({f})" if lang else "") for f, lang in close]
            hint = f"; did you mean {' or '.join(shown)}?"
        else:
            hint = did_you_mean(faction, ids)
        raise UsageError(f"unknown faction '{faction}'{hint} (factions: {', '.join(ids)})")


def bonus_part_text(loc: Locale, part: BonusPart) -> str:
    text = loc.format("bonus.part", amount=format_amount(part.amount), stat=loc.get(f"stat.{part.stat}"))
    if part.when != "always":
        text = loc.format(f"bonus.when.{part.when}", part=text)
    if part.whose != "own":
        text = loc.format(f"bonus.whose.{part.whose}", part=text)
    return text


def reloaded(project: Project, changed) -> Project:
    """The game of `project` after the files `changed` (paths in its directory) were edited:
    those files read again, and everything read only from other files kept — the card
    database, the configuration, the locales, fonts, templates and glossary as loaded — so an
    edit of one locale file re-reads that file alone. An edit of ppgen.yaml, or a locale file
    added or removed (the languages changed), reloads everything. Raises DataError as `load` does."""
    gamedir = project.dir
    changed = {Path(p).resolve() for p in changed}
    if gamedir.config in changed:
        return open_project(gamedir)
    if any(_adds_or_removes_a_language(project, path) for path in changed):
        return open_project(gamedir)
    game = load_game(gamedir) if gamedir.cards in changed else project.game
    new = Project(gamedir, game, project.config)
    if not changed & {gamedir.cards, gamedir.locale(project.config.source_language)}:  # a locale is checked against both
        new._locales = {lang: loc for lang, loc in project._locales.items() if gamedir.locale(lang) not in changed}
    for name, value in project._derived.items():
        read_from = _derived_from(gamedir, name)
        if read_from is not None and not any(_within(path, f) for path in changed for f in read_from):
            new._derived[name] = value
    return new


def _derived_from(gamedir: GameDir, name: str) -> tuple[Path, ...] | None:
    """The files a cached derivation (`Project.cached` name) is made from; None: not known,
    so a reloaded project makes it again."""
    d = gamedir
    card = (d.template("card"), d.cards)  # the card template is checked against the game's unit types
    for prefix, files in (("fonts", (d.fonts,)), ("digest:fonts/", (d.fonts,)), ("face-inputs:fonts:", (d.fonts,)),
                          ("glossary", (d.glossary,)), ("phrases:", (d.glossary,)), ("language-names", ()),
                          ("template:card", card), ("face-inputs:template:", card), ("template:", (d.templates,)),
                          ("art-", (d.art, *card)), ("deck-names", (d.cards, d.locales))):
        if name.startswith(prefix):
            return files
    return None


def _adds_or_removes_a_language(project: Project, path: Path) -> bool:
    """A locale file that is new, gone, or was never read (so it may be new): the languages change."""
    d = project.dir
    if path.parent != d.locales or path.suffix != ".yaml" or path == d.glossary:
        return False
    return path.stem not in project._locales or not d.is_file(path)


def _within(path: Path, file_or_folder: Path) -> bool:
    return path == file_or_folder or file_or_folder in path.parents


def load(root: str | Path | None = None) -> Project:
    """Load the game directory at `root` (or found upward from the current directory)."""
    return open_project(find_game_dir(root))


def open_project(gamedir: GameDir) -> Project:
    """The project of a game directory (or of a RevisionDir: the game as it was at a git revision)."""
    game = load_game(gamedir)
    config = load_config(gamedir)
    source = gamedir.locale(config.source_language)
    if not gamedir.is_file(source):
        raise DataError([Problem(gamedir.show(source), 0, 0, "the source-language locale file is missing", "missing")])
    return Project(gamedir, game, config)
