"""Errata: what changed since an earlier version of the game, and the cards to reprint.

    compare   two projects → Errata: per language, the cards changed, added and removed
              (field by field, old → new), rules sections, rule constants, stale translations
    report    the comparison as text (a forum post, a commit message) and as JSON
    sheets    out/<lang>/errata-<lang>.pdf: the changelog page, then card sheets of the changed cards

The other version is a git revision or another game directory (read/revision.py).
"""
