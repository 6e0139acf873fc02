"""The words a drawing prints, in one language, with every English fallback reported.

`Words(project, lang, report)` looks texts up by key and fills their
{placeholders} from the game's rule constants. Every key that had to fall
back to English while drawing (here or through Project helpers such as
card_name) is reported once through `report.warning("fallback", ...)` when
the drawing is done: use the object as a context manager around the drawing.
"""
from __future__ import annotations


class Words:
    def __init__(self, project, lang: str, report, extra_values: dict | None = None):
        self.project, self.lang, self.report = project, lang, report
        self.locale = project.locale(lang)
        self.values = dict(project.game.rules.placeholders(project.game.factions))
        self.values.update(extra_values or {})

    def __enter__(self) -> "Words":
        from ..report import fallbacks_reported

        self._watch = fallbacks_reported(self.locale, self.report)
        self._watch.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._watch.__exit__(*exc)

    def __call__(self, key: str, **values) -> str:
        """The text of `key` with its {placeholders} filled (rule constants, then `values`)."""
        text = self.locale.get(key)
        if "{" not in text:
            return text
        try:
            return text.format_map({**self.values, **values})
        except KeyError as exc:
            problem = f"an unknown placeholder {{{exc.args[0]}}}"
        except (ValueError, IndexError, AttributeError):
            problem = "a malformed {placeholder}"
        self.report.warning("placeholder", f"'{key}' has {problem}; printed as written", lang=self.lang, key=key)
        return text
