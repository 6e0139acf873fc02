"""Decklists: read them (text or YAML, names in any language), check the deck-building rules.

The library API, used by `ppgen validate` and by `ppgen build --deck`::

    import ppgen
    from ppgen import decks

    project = ppgen.load()
    deck = decks.load_deck(project, "decks/starter-rome.txt")   # DataError (exit 2) if unreadable
    report = decks.validate(project, deck, games=None)         # games: overrides the list's `games:`
    report.legal                  # True when no issue is an error
    report.issues                 # every finding: .code .severity .line .lines .cards .params .hint
    deck.card_list(project.game)  # [(Card, copies)] in database order: what a build prints
    for line in decks.report_lines(report, project, "ja"):     # the text report, in Japanese
        print(line)
    decks.report_dict(report, project, "en")                   # the stable JSON form

Modules, one concern each:
    deck.py   — Deck, Entry, Issue, Ref: plain data
    (read/names.py — the name index: ids, codes, names in every locale; normalisation; "did
     you mean"; shared with --faction and `ppgen preview`)
    parse.py  — text and YAML decklists → Deck (reading problems become Issues)
    rules.py  — the rule table (decisions §5), one small function per rule, numbers from cards.yaml
    report.py — Report, summary, messages in any language, text and JSON

Issue codes (stable; the message template is `deck.<code>` in every locale):
    reading:  bad-line, no-count, bad-count, zero-count (warning), unknown-card, ambiguous-card,
              unknown-field, duplicate-field, bad-games, unknown-faction, empty
    rules:    primary-unknown, primary-absent, deck-size, copies, deck-split, too-many-factions,
              commanders, commander-copies, commander-faction, terrain-count, terrain-primary,
              faction-locked, coalition-locked
    notes (info): merged, primary-inferred, unlock-note, games-override

This package never imports the PDF stack: `ppgen validate` stays fast.
"""
from __future__ import annotations

from .deck import Deck, Entry, Issue, Ref
from .parse import load_deck, parse_deck
from .report import Report, Words, report_dict, report_lines, summarise, unreadable_dict, unreadable_lines
from .rules import CHECKS, Context, run_checks


def validate(project, deck: Deck, games: int | None = None) -> Report:
    """Check `deck` against every rule; `games` (games played) overrides the decklist's own."""
    games_source = "option" if games is not None else ("decklist" if deck.games is not None else None)
    effective = games if games is not None else deck.games
    ctx = Context(project, deck, effective, games_source)
    issues, skipped = run_checks(ctx)
    if games is not None and deck.games is not None and games != deck.games:
        line, col = deck.games_at
        issues.insert(0, Issue("games-override", "info", {"games": games, "listed": deck.games}, line, col, (line,)))
    return Report(
        deck=deck,
        issues=_ordered(deck.issues + issues),
        primary=ctx.primary,
        primary_source=ctx.primary_source,
        games=effective,
        games_source=games_source,
        deck_type=ctx.deck_type() if ctx.cards else None,
        summary=summarise(ctx),
        skipped=skipped,
    )


def _ordered(issues: list[Issue]) -> list[Issue]:
    """Errors first, then warnings, then notes; within each, in the order found (reading, then the rule table)."""
    rank = {"error": 0, "warning": 1, "info": 2}
    return sorted(issues, key=lambda i: rank[i.severity])


__all__ = [
    "CHECKS", "Deck", "Entry", "Issue", "Ref", "Report", "Words",
    "load_deck", "parse_deck", "validate", "report_dict", "report_lines", "unreadable_dict", "unreadable_lines",
]
