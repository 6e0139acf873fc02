"""Drawing styles a designer edits: `templates/rulebook-style.yaml` and `templates/mat-style.yaml`.

A style file is a mapping of sections, each a mapping of keys to numbers or
colours. Its spec here says what every key holds, so a typo or a wrong value is
reported at file:line:col with a "did you mean", through the same schema checker
as every other file (schema.check_mapping). The card template is templates.py.

Conventions: lengths in millimetres, type sizes in points, colours "#rrggbb".

A style may hold *variants*: a top-level section (the rulebook's `booklet:`) whose
sections override some keys of the main ones for another page size, checked by
the same spec. `rulebook_style(project, "booklet")` is the rulebook's look for its
A5 / half-Letter pages: the same code lays the book out on either page.
"""
from __future__ import annotations

import re
from dataclasses import replace
from types import SimpleNamespace

from ..errors import DataError, Problem
from .schema import Field, check_mapping
from .templates import check_align, language_key_problems

_COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")


def length(lo: float = 0.0, hi: float = 1000.0, help: str = "") -> Field:
    """A required number (mm, pt or a factor) between lo and hi."""

    def check(v):
        return None if lo <= v <= hi else f"must be between {lo:g} and {hi:g}, not {v}"

    return Field(float, True, check=check, help=help)


def colour(help: str = "") -> Field:
    return Field(str, True, check=lambda v: None if _COLOUR.match(v) else 'must be a colour like "#7A2E1C" (quoted)', help=help)


VARIANTS = {"rulebook-style": ("booklet",)}  # per style file: its optional sections of overrides (see `variant`)


def load_template(project, name: str, spec: dict[str, dict[str, Field]]) -> SimpleNamespace:
    """`templates/<name>.yaml` checked against `spec` ({section: {key: Field}}), read once per
    project; DataError on any problem. Its VARIANTS are read too, into `.variants`."""
    return project.cached(f"template:{name}", lambda: _read_template(project, name, spec, VARIANTS.get(name, ())))


def variant(style: SimpleNamespace, name: str) -> SimpleNamespace:
    """The style with the overrides of variant `name` applied (the style itself when it has none)."""
    over = getattr(style, "variants", {}).get(name)
    if over is None:
        return style
    merged = {section: SimpleNamespace(**{**vars(values), **vars(getattr(over, section, SimpleNamespace()))})
              for section, values in vars(style).items() if section != "variants"}
    return SimpleNamespace(**merged)


def _read_template(project, name: str, spec: dict[str, dict[str, Field]], variants: tuple[str, ...] = ()) -> SimpleNamespace:
    doc = project.dir.yaml(project.dir.template(name))
    problems: list[Problem] = []
    top_spec = {section: Field(dict, True) for section in spec} | {v: Field(dict, False) for v in variants}
    top = check_mapping(doc, (), doc.data if doc.data is not None else {}, top_spec, problems, f"{name}.yaml")
    out = SimpleNamespace()
    if top is not None:
        _read_sections(doc, (), top, spec, problems, out)
        out.variants = {}
        optional = {section: {k: replace(f, required=False) for k, f in fields.items()} for section, fields in spec.items()}
        for v in variants:
            if top.get(v) is None:
                continue
            over = check_mapping(doc, (v,), top[v], {section: Field(dict, False) for section in spec}, problems, f"section '{v}'")
            out.variants[v] = SimpleNamespace()
            if over is not None:
                _read_sections(doc, (v,), over, optional, problems, out.variants[v], given_only=True)
    problems += language_key_problems(doc, spec.values(), project.config.languages)
    if problems:
        raise DataError(problems)
    return out


def _read_sections(doc, path: tuple, top: dict, spec, problems, out: SimpleNamespace, given_only: bool = False) -> None:
    for section, fields in spec.items():
        if top.get(section) is None:
            continue
        where = ".".join(path + (section,))
        values = check_mapping(doc, path + (section,), top[section], fields, problems, f"section '{where}'") or {}
        if given_only:  # a variant: only the keys it names
            values = {k: v for k, v in values.items() if k in top[section]}
        setattr(out, section, SimpleNamespace(**values))


# ── templates/rulebook-style.yaml ─────────────────────────────────────────
RULEBOOK_STYLE_SPEC = {
    "page": {
        **{k: length(0, 200) for k in ("margin_top", "margin_bottom", "margin_side", "head_offset", "foot_offset", "title_frame")},
        "ornaments": length(0.2, 3, help="size of the title page's ornaments and shields, as a factor"),
    },
    "colours": {k: colour() for k in ("ink", "heading", "accent", "muted", "rule", "panel", "zebra")},
    "type": {
        **{k: length(3, 200) for k in ("title", "subtitle", "tagline", "lead", "h1", "h2", "band", "body",
                                         "table", "table_header", "head", "folio", "colophon")},
        **{k: length(0.8, 3) for k in ("leading", "cjk_leading", "table_leading")},
        "body_align": Field((str, dict), False, "left", check=check_align,
                            help="body text: left or justify (ja/zh: on the character grid), or per language {default: left, ja: justify}"),
    },
    "space": {k: length(0, 100) for k in ("paragraph", "list_item", "list_after", "list_hang", "h1_before", "h1_after",
                                           "h1_rule", "h2_before", "h2_after", "panel_padding", "panel_bar",
                                           "band_padding", "band_after", "table_pad_x", "table_pad_y", "table_after")},
    "reference": {
        **{k: length(0.05, 20) for k in ("name", "type", "bonus", "effect")},
        "header_tint": length(0, 1, help="white mixed into the faction colour for table header rows"),
    },
}


# ── templates/mat-style.yaml (the mats and the score sheet) ───────────────
MAT_STYLE_SPEC = {
    "page": {"min_margin": length(0, 50)},
    "card": {"sleeve": length(0, 10, help="mm a sleeve adds to a card's width and height"),
             "room": length(0, 10, help="mm of room around a (sleeved) card in its zone"), "corner": length(0, 20)},
    "dice": {"d20": length(5, 60), "d12": length(5, 60), "d6": length(5, 40)},
    "spots": {"d20": length(5, 80), "d12": length(5, 80), "d6": length(5, 60)},
    "layout": {
        "unit_slots": length(1, 6),
        **{k: length(0, 100) for k in ("gap", "side_gap", "header", "spot_band", "spot_pair_gap", "panel_gap", "life_track",
                                        "life_label", "track_height", "first_turn_line", "combat", "panel_padding", "glue")},
    },
    "colours": {k: colour() for k in ("ink", "line", "zone", "panel", "heading", "accent", "muted", "watermark", "bonus",
                                      "wound", "die_fill", "facet")},
    "type": {k: length(3, 72) for k in ("title", "zone_label", "heading", "body", "small", "track", "min")},
    "sheet": {
        **{k: length(0, 100) for k in ("margin", "turn_column", "energy_column", "life_column")},
        # rows are counted by dividing the page by their height: a row must hold handwriting
        **{k: length(4, 100, help="mm; room to write in") for k in ("row_height", "header_height")},
        **{k: length(3, 72) for k in ("title", "body", "numbers")},
    },
}


def rulebook_style(project, form: str = "pages") -> SimpleNamespace:
    """templates/rulebook-style.yaml, checked, read once per project; `form` "booklet" applies
    its `booklet:` overrides (the look of the A5 / half-Letter pages of `--rulebook booklet`)."""
    return variant(load_template(project, "rulebook-style", RULEBOOK_STYLE_SPEC), form)


def mat_style(project) -> SimpleNamespace:
    """templates/mat-style.yaml, checked (shared by the mat and the score sheet), read once per project."""
    return load_template(project, "mat-style", MAT_STYLE_SPEC)
