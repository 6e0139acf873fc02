"""The deck-building rules (decisions §5): one small function per rule, run in order.

Every number comes from cards.yaml (`rules:` and each faction's
`unlock_games`). `CHECKS` is the rule table: each check names the facts it
needs; when one is missing (no primary faction, a name not recognised, a line
without a count) the check is skipped and the report says so, instead of
piling consequences on the real problem.

Facts: `cards` (the list names at least one card), `names` (every name was
recognised), `counts` (every line had a readable count), `primary` (the primary
faction is known and in the deck; set by `check_primary`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..read.model import Card, Rules
from .deck import Deck, Issue, Ref

READING_COUNT_CODES = ("bad-line", "no-count", "bad-count")
READING_NAME_CODES = ("unknown-card", "ambiguous-card")


def deck_shapes(rules: Rules) -> dict[int, tuple[str, list[int]]]:
    """Number of factions → (deck type, cards per faction: primary first)."""
    return {1: ("standard", [rules.deck_size]), 2: ("allied", list(rules.allied)), 3: ("coalition", list(rules.coalition))}


@dataclass
class Context:
    """What every check may look at: the deck, the game's rules, facts established so far."""

    project: object
    deck: Deck
    games: int | None
    games_source: str | None  # "option" | "decklist" | None
    primary: str | None = None
    primary_source: str | None = None  # "declared" | "inferred"
    facts: set = field(default_factory=set)

    def __post_init__(self):
        self.game = self.project.game
        self.rules: Rules = self.game.rules
        self.cards: dict[str, int] = {k: v for k, v in self.deck.cards.items() if v > 0}

    def card(self, card_id: str) -> Card:
        return self.game.card(card_id)

    def faction_counts(self) -> dict[str, int]:
        """Faction id → cards in the deck (known cards only), in the database's faction order."""
        counts = {f: 0 for f in self.game.factions}
        for card_id, n in self.cards.items():
            counts[self.card(card_id).faction] += n
        return {f: n for f, n in counts.items() if n}

    def ordered_factions(self) -> list[tuple[str, int]]:
        """Primary first, then the others by cards (most first)."""
        counts = self.faction_counts()
        order = list(self.game.factions)
        others = sorted((f for f in counts if f != self.primary), key=lambda f: (-counts[f], order.index(f)))
        return [(f, counts[f]) for f in ([self.primary] if self.primary in counts else []) + others]

    def where(self, card_ids) -> tuple[int, int, tuple[int, ...]]:
        """(line, col, every line) of the entries naming these cards."""
        entries = [e for e in self.deck.entries if e.card in set(card_ids)]
        if not entries:
            return 0, 0, ()
        first = min(entries, key=lambda e: e.line)
        return first.line, first.col, tuple(sorted({e.line for e in entries}))

    def issue(self, code: str, card_ids=(), severity: str = "error", hint=None, hint_params=None, at=None, **params) -> Issue:
        line, col, lines = self.where(card_ids)
        if at is not None and at[0]:
            line, col = at
            lines = tuple(sorted(set(lines) | {at[0]}))
        return Issue(code, severity, params, line, col, lines, tuple(card_ids), hint, hint_params or {})

    def deck_type(self) -> str | None:
        shape = deck_shapes(self.rules).get(len(self.faction_counts()))
        return shape[0] if shape else None

    def named(self, card_ids, with_faction: bool = False) -> list[Ref]:
        """The cards a message is about, in card-database order, with their copies."""
        order = {c.id: i for i, c in enumerate(self.game.cards)}
        return [Ref("card", c, count=self.cards.get(c, 0), with_faction=with_faction) for c in sorted(card_ids, key=order.get)]


MAX_STRAYS = 3  # distinct cards of other factions named as "the odd ones out" instead of a rebuild


@dataclass(frozen=True)
class Split:
    """A deck shape the deck could be changed into: the factions kept (id, cards wanted, cards
    held, primary first) and the factions dropped (id, cards held)."""

    kept: tuple[tuple[str, int, int], ...]
    dropped: tuple[tuple[str, int], ...]

    @property
    def changes(self) -> int:
        """Cards to change: every difference, every card of a dropped faction."""
        return sum(abs(want - have) for _, want, have in self.kept) + sum(have for _, have in self.dropped)


def nearest_split(ctx: Context, ordered: list[tuple[str, int]]) -> Split:
    """The deck shape reached with the fewest card changes: the primary and the factions with the
    most cards kept, the others dropped. On a tie the deck keeps its factions."""
    shapes = deck_shapes(ctx.rules)
    best = None
    for k in range(min(len(ordered), max(shapes)), 0, -1):
        _, need = shapes[k]
        split = Split(tuple((f, want, have) for (f, have), want in zip(ordered[:k], need)), tuple(ordered[k:]))
        if best is None or split.changes < best.changes:
            best = split
    return best


def split_hint(ctx: Context, split: Split) -> tuple[str, dict] | None:
    """The fix for a deck whose factions do not fit a shape. A few cards of a faction that does
    not belong (a Standard deck with one Spartan card) are named, to be removed or replaced;
    otherwise the counts to change per faction. None when the deck keeps no shape at all."""
    strays = [c for c in ctx.cards if ctx.card(c).faction in {f for f, _ in split.dropped}]
    short = [f for f, want, have in split.kept if want > have]
    over = [f for f, want, have in split.kept if have > want]
    if split.dropped and len(strays) <= MAX_STRAYS and not over:
        cards = ctx.named(strays, with_faction=True)
        if not short:
            return "deck.hint.remove-strays", {"cards": cards}
        return "deck.hint.replace-strays", {"cards": cards, "n": sum(ctx.cards[c] for c in strays),
                                            "choices": [Ref("faction", f) for f in short]}
    changes = [(Ref("faction", f), want - have) for f, want, have in split.kept if want != have]
    changes += [(Ref("faction", f), -have) for f, have in split.dropped]
    return "deck.hint.split", {"changes": changes}


# ── the rules ─────────────────────────────────────────────────────────────
def check_merged(ctx: Context) -> Iterable[Issue]:
    """The same card on several lines (in any languages) is summed; say so, citing every line."""
    for card_id, n in ctx.cards.items():
        if len(ctx.deck.lines_of(card_id)) > 1:
            line, col, lines = ctx.where([card_id])
            yield ctx.issue("merged", [card_id], "info", card=Ref("card", card_id), lines=list(lines), count=n)


def check_primary(ctx: Context) -> Iterable[Issue]:
    """Primary faction: declared; or inferred only when one faction has strictly the most cards."""
    deck, counts = ctx.deck, ctx.faction_counts()
    if deck.primary_declared:
        if deck.primary is None:
            return  # an unknown faction name, already reported where it was read
        ctx.primary, ctx.primary_source = deck.primary, "declared"
        if deck.primary not in counts:
            if "names" in ctx.facts:
                yield ctx.issue("primary-absent", at=deck.primary_at, primary=Ref("faction", deck.primary),
                                hint="deck.hint.declare-primary", hint_params={"example": Ref("faction", _leader(counts))})
            return
        ctx.facts.add("primary")
        return
    unknown = sum(e.count for e in deck.unresolved)
    ranked = sorted(counts.items(), key=lambda fc: -fc[1])
    if not ranked:
        return  # no card recognised: nothing to infer from (the names are reported)
    lead = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0)
    if lead > unknown:
        ctx.primary, ctx.primary_source = ranked[0][0], "inferred"
        ctx.facts.add("primary")
        yield ctx.issue("primary-inferred", severity="info", primary=Ref("faction", ctx.primary), count=ranked[0][1])
        return
    tied = [f for f, n in ranked if n == ranked[0][1]]
    yield ctx.issue("primary-unknown", counts=[(Ref("faction", f), n) for f, n in ranked],
                    hint="deck.hint.declare-primary", hint_params={"example": Ref("faction", tied[0])})


def check_deck_size(ctx: Context) -> Iterable[Issue]:
    """Exactly `deck_size` cards, every card counted."""
    total, size = ctx.deck.total, ctx.rules.deck_size
    if total != size:
        hint = "deck.hint.remove-cards" if total > size else "deck.hint.add-cards"
        yield ctx.issue("deck-size", total=total, size=size, hint=hint, hint_params={"n": abs(total - size)})


def check_copies(ctx: Context) -> Iterable[Issue]:
    """At most `max_copies` of any card."""
    most = ctx.rules.max_copies
    for card_id, n in ctx.cards.items():
        if n > most:
            yield ctx.issue("copies", [card_id], card=Ref("card", card_id), count=n, max=most,
                            hint="deck.hint.remove-copies", hint_params={"n": n - most})


def check_deck_type(ctx: Context) -> Iterable[Issue]:
    """Standard, Allied (30 + 10) or Coalition (26 + 8 + 6): the split between factions.

    The hint is the nearest legal shape: one Spartan card in a Standard Rome deck is named
    ("remove Leonidas, King of Sparta (Sparta)"), not answered with an Allied rebuild."""
    shapes = deck_shapes(ctx.rules)
    ordered = ctx.ordered_factions()
    split = nearest_split(ctx, ordered)
    if len(ordered) not in shapes:
        hint, params = split_hint(ctx, split)
        if hint == "deck.hint.split":
            hint, params = "deck.hint.fewer-factions", {"max": max(shapes)}
        yield ctx.issue("too-many-factions", count=len(ordered), max=max(shapes),
                        factions=[Ref("faction", f) for f, _ in ordered], hint=hint, hint_params=params)
        return
    kind, need = shapes[len(ordered)]
    if kind == "standard":
        return  # 40 of one faction: the deck-size rule says everything
    have = [n for _, n in ordered]
    if have != need:
        hint, params = split_hint(ctx, split)
        yield ctx.issue("deck-split", type=Ref("deck-type", kind),
                        expected=[(Ref("faction", f), want) for (f, _), want in zip(ordered, need)],
                        actual=[(Ref("faction", f), n) for f, n in ordered],
                        hint=hint, hint_params=params)


def _commanders(ctx: Context) -> dict[str, int]:
    return {c: n for c, n in ctx.cards.items() if ctx.card(c).commander}


def check_commander_count(ctx: Context) -> Iterable[Issue]:
    """`commanders_min`–`commanders_max` Commanders per deck."""
    found = _commanders(ctx)
    n, lo, hi = sum(found.values()), ctx.rules.commanders_min, ctx.rules.commanders_max
    if n > hi:
        yield ctx.issue("commanders", list(found), count=n, min=lo, max=hi, cards=ctx.named(found),
                        hint="deck.hint.remove-commanders", hint_params={"n": n - hi})
    elif n < lo and "names" in ctx.facts:
        examples = [c.id for c in ctx.game.cards if c.commander and c.faction == ctx.primary and c.id not in found]
        hint = ("deck.hint.add-commander", {"n": lo - n, "example": Ref("card", examples[0])}) if examples else (
            "deck.hint.add-commanders", {"n": lo - n})
        yield ctx.issue("commanders", list(found), count=n, min=lo, max=hi, cards=ctx.named(found),
                        hint=hint[0], hint_params=hint[1])


def check_commander_copies(ctx: Context) -> Iterable[Issue]:
    """One copy of each Commander."""
    for card_id, n in _commanders(ctx).items():
        if n > 1:
            yield ctx.issue("commander-copies", [card_id], card=Ref("card", card_id), count=n,
                            hint="deck.hint.remove-copies", hint_params={"n": n - 1})


def check_commander_faction(ctx: Context) -> Iterable[Issue]:
    """Commanders come from the primary faction."""
    mine = [c.id for c in ctx.game.cards if c.commander and c.faction == ctx.primary]
    for card_id in _commanders(ctx):
        faction = ctx.card(card_id).faction
        if faction != ctx.primary:
            yield ctx.issue("commander-faction", [card_id], card=Ref("card", card_id), faction=Ref("faction", faction),
                            primary=Ref("faction", ctx.primary), hint="deck.hint.replace-commander",
                            hint_params={"choices": [Ref("card", c) for c in mine]})


def _terrain(ctx: Context) -> dict[str, int]:
    return {c: n for c, n in ctx.cards.items() if ctx.card(c).terrain}


def check_terrain_count(ctx: Context) -> Iterable[Issue]:
    """At most `terrain_max` Terrain cards."""
    found = _terrain(ctx)
    n, most = sum(found.values()), ctx.rules.terrain_max
    if n > most:
        yield ctx.issue("terrain-count", list(found), count=n, max=most, cards=ctx.named(found),
                        hint="deck.hint.remove-cards", hint_params={"n": n - most})


def check_terrain_primary(ctx: Context) -> Iterable[Issue]:
    """With any Terrain, at least one Terrain card of the primary faction."""
    found = _terrain(ctx)
    if found and not any(ctx.card(c).faction == ctx.primary for c in found):
        mine = [c.id for c in ctx.game.cards if c.terrain and c.faction == ctx.primary]
        yield ctx.issue("terrain-primary", list(found), primary=Ref("faction", ctx.primary), cards=ctx.named(found, with_faction=True),
                        hint="deck.hint.include" if mine else None,
                        hint_params={"choices": [Ref("card", c) for c in mine]})


def check_unlocks(ctx: Context) -> Iterable[Issue]:
    """Every faction in the deck unlocked (and Coalition decks available) at the games played.

    Games not stated: every faction counts as unlocked; an info says what the
    deck needs online.
    """
    factions = ctx.game.factions
    used = ctx.faction_counts()
    coalition = ctx.deck_type() == "coalition"
    unlocks = sorted(f.unlock_games for f in factions.values())
    k = ctx.rules.coalition_unlocked
    coalition_need = unlocks[k - 1] if 0 < k <= len(unlocks) else None
    if ctx.games is None:
        need = [(f, factions[f].unlock_games) for f in used if factions[f].unlock_games > 0]
        most = max([g for _, g in need] + ([coalition_need] if coalition and coalition_need else []), default=0)
        if most:
            yield ctx.issue("unlock-note", severity="info", games=most,
                            factions=[(Ref("faction", f), g) for f, g in sorted(need, key=lambda x: x[1])])
        return
    for f in used:
        need = factions[f].unlock_games
        if need > ctx.games:
            ids = [c for c in ctx.cards if ctx.card(c).faction == f]
            yield ctx.issue("faction-locked", ids, faction=Ref("faction", f), need=need, games=ctx.games, count=used[f],
                            hint="deck.hint.play-more", hint_params={"n": need - ctx.games})
    if coalition:
        unlocked = sum(1 for g in unlocks if g <= ctx.games)
        if unlocked < k:
            yield ctx.issue("coalition-locked", count=k, need=coalition_need, games=ctx.games, unlocked=unlocked,
                            hint="deck.hint.play-more", hint_params={"n": (coalition_need or 0) - ctx.games})


@dataclass(frozen=True)
class Check:
    name: str
    run: Callable[[Context], Iterable[Issue]]
    needs: tuple[str, ...] = ()


# The rule table: run in this order; a check whose needs are not met is skipped.
CHECKS: tuple[Check, ...] = (
    Check("merged", check_merged),
    Check("primary", check_primary, ("cards",)),
    Check("deck-size", check_deck_size, ("cards", "counts")),
    Check("copies", check_copies),
    Check("deck-type", check_deck_type, ("primary", "names", "counts")),
    Check("commanders", check_commander_count, ("cards",)),
    Check("commander-copies", check_commander_copies),
    Check("commander-faction", check_commander_faction, ("primary",)),
    Check("terrain-count", check_terrain_count),
    Check("terrain-primary", check_terrain_primary, ("primary", "names")),
    Check("unlocks", check_unlocks, ("cards",)),
)


def _leader(counts: dict[str, int]) -> str:
    return max(counts, key=lambda f: counts[f])


def initial_facts(deck: Deck) -> set[str]:
    facts = set()
    if any(e.count > 0 for e in deck.entries):
        facts.add("cards")
    codes = {i.code for i in deck.issues}
    if not codes & set(READING_NAME_CODES):
        facts.add("names")
    if not codes & set(READING_COUNT_CODES):
        facts.add("counts")
    return facts


def run_checks(ctx: Context) -> tuple[list[Issue], list[tuple[str, list[str]]]]:
    """Run the rule table; return (issues, skipped checks with the facts they lacked)."""
    ctx.facts |= initial_facts(ctx.deck)
    issues: list[Issue] = []
    skipped: list[tuple[str, list[str]]] = []
    for check in CHECKS:
        missing = [n for n in check.needs if n not in ctx.facts]
        if missing:
            skipped.append((check.name, missing))
            continue
        issues.extend(check.run(ctx))
    return issues, skipped
