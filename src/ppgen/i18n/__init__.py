"""The translator toolkit behind `ppgen i18n`: status, QA checks, sync and the PO round trip.

- the glossary (`locales/glossary.yaml`: game terms per language, number idioms, texts
  that may stay English, key words, unbreakable phrases) is read by `read/glossary.py`,
  since the typesetting uses it too.
- `states`   — what state each entry is in (translated, missing, stale, untranslated)
  and the per-language status counts.
- `checks`   — the checks of `ppgen i18n check`: small functions in one registry.
- `edit`     — minimal, verified text edits of a locale file (everything not edited
  stays byte-identical, comments included).
- `sync`     — add missing keys, mark stale entries, list (or prune) orphans.
- `po`       — export a language to a PO file and import one back.
"""
