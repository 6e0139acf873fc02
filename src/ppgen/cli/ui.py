"""Terminal output: colour and progress only on a terminal (no colour where NO_COLOR is set,
https://no-color.org), quiet when piped or --quiet."""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

import click

from ..errors import Problem, plural, printable


@dataclass
class UI:
    root: str | None = None
    quiet: bool = False
    debug: bool = False
    warnings: int = 0
    words: object = None  # a decks.Words: the command speaks the report's language (`validate --lang ja`)
    _started: float = field(default_factory=time.monotonic)
    _progress_shown: bool = False

    @property
    def tty(self) -> bool:
        return sys.stderr.isatty()

    @property
    def colour(self) -> bool:
        return self.tty and not os.environ.get("NO_COLOR")

    def _style(self, text: str, **kw) -> str:
        return click.style(text, **kw) if self.colour else text

    def info(self, message: str) -> None:
        if not self.quiet:
            click.echo(printable(message), err=True)

    def warn(self, message: str) -> None:
        self.warnings += 1
        if not self.quiet:
            label = self.words.text("deck.label.warning") if self.words else "warning"
            click.echo(f"{self._style(label, fg='yellow', bold=True)}: {printable(message)}", err=True)

    def error(self, message: str) -> None:
        click.echo(f"{self._style('error', fg='red', bold=True)}: {printable(message)}", err=True)

    def problem(self, p: Problem) -> None:
        colour = "red" if p.severity == "error" else "yellow"
        click.echo(f"{self._style(p.where(), bold=True)}: {self._style(p.severity, fg=colour, bold=True)}[{p.code}] {printable(p.message)}", err=True)

    def progress(self, done: int, total: int, what: str) -> None:
        """A one-line progress indicator, redrawn in place; only on a terminal."""
        if self.quiet or not self.tty or time.monotonic() - self._started < 0.5 and done < total:
            return
        width = 24
        filled = int(width * done / max(total, 1))
        sys.stderr.write(f"\r  [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what[:50]:<50}")
        sys.stderr.flush()
        self._progress_shown = True
        if done >= total:
            self.end_progress()

    def end_progress(self) -> None:
        if self._progress_shown:
            sys.stderr.write("\r" + " " * 90 + "\r")
            sys.stderr.flush()
            self._progress_shown = False

    def summary(self, message: str, ok: bool = True) -> None:
        """The one-line summary every command ends with (shown even with --quiet)."""
        self.end_progress()
        seconds = time.monotonic() - self._started
        count = self.words.text("deck.warnings", n=self.warnings) if self.words else plural(self.warnings, "warning")
        tail = f"{self.words.text('deck.list-separator') if self.words else ', '}{count}" if self.warnings else ""
        if ok:
            mark = self._style("✓", fg="green", bold=True) if self.tty else "ok:"
        else:
            mark = self._style("✗", fg="red", bold=True) if self.tty else "failed:"
        click.echo(f"{mark} {printable(message)}{tail} ({seconds:.1f} s)", err=True)
