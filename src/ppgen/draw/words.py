"""The words a drawing prints, in one language.

`Words(project, lang, report)` looks texts up by key and fills their
{placeholders} from the game's rule constants (then from the caller's values).
English fallbacks and broken placeholders are recorded by the Locale and
reported by whoever runs the drawing (report.fallbacks_reported).
"""
from __future__ import annotations


class Words:
    def __init__(self, project, lang: str, report, extra_values: dict | None = None):
        self.project, self.lang, self.report = project, lang, report
        self.locale = project.locale(lang)
        self.values = dict(project.game.rules.placeholders(project.game.factions))
        self.values.update(extra_values or {})

    def __call__(self, key: str, **values) -> str:
        """The text of `key` with its {placeholders} filled (rule constants, then `values`)."""
        return self.locale.format(key, **{**self.values, **values})
