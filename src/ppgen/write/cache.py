"""Builds that keep what is already written: when nothing a language's files are drawn from has
changed since the last build into the same folder, its files stay as they are, not redrawn.

After writing a language's files, the build leaves a record of them beside them, in
`<out>/.ppgen-cache/<lang>-<name>.json` (one per language and set of file names, so a
`--faction rome` build and a full build into one folder keep their records apart):

    key       a digest of everything the drawing depends on (`BuildInputs`): ppgen's own code
              and the versions of the libraries it draws with, the build's options and print
              run, and the signature (read/gamedir.py `GameDir.signature`) of every input file
    files     each file written: its path, its inode, size and modification time as this build
              renamed it into place, and what the build's summary says of it (pages, cards,
              faces, part)
    warnings  the warnings its drawing reported: shown again, and `--strict` fails on them again

The next build trusts a record only when the key is the same and every file it names is still
as it was written; anything else — an input edited, added or removed, an output deleted or
touched, another version of ppgen — and the language is drawn afresh. Records are written
atomically after the files they describe, with each file as this build wrote it (its inode is
the temporary file's, renamed into place): two builds racing into one folder can leave a record
whose files another build has since replaced, and such a record is never trusted. (Stamped
after the writing, a file the other build had replaced in between was recorded as this one's,
and the next build with these options said "up to date" over the other build's files.)
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from ..read.cache import code_digest

FOLDER = ".ppgen-cache"
VERSION = 2  # of the record's format: a record of another version is ignored (1: no inodes)


def input_files(project, lang: str) -> list[Path]:
    """Every file one language's drawing may read: the card database and configuration, the
    language's locale and the source language's (printed where a text is untranslated) and the
    glossary, and every file under templates/, fonts/ and art/. Other languages' locale
    files are not read (a Korean edit leaves the Japanese files as they are); which languages
    exist is part of the key (BuildInputs)."""
    d = project.dir
    files = [d.cards, d.config, d.locale(project.config.source_language), d.locale(lang), d.glossary]
    for folder in (d.templates, d.fonts, d.art):
        files += d.files_under(folder)
    return list(dict.fromkeys(files))


@dataclass(frozen=True)
class BuildInputs:
    """What one language's files are drawn from, as far as a record needs to know."""

    project: object
    options: object  # write.build.BuildOptions
    cards: tuple[str, ...]  # the print run's card ids, in order
    decks: tuple  # the tuck boxes' decks: (title, faction, ((card id, count), …))
    names: tuple  # the file name patterns (write.build.file_names), sorted

    def key(self, lang: str) -> str:
        project = self.project
        options = replace(self.options, langs=(lang,), out=Path(), jobs=0, strict=False)
        h = hashlib.sha256()
        for part in (f"v{VERSION}", code_digest(), repr(options), repr(self.cards), repr(self.decks), repr(self.names),
                     repr(project.languages)):
            h.update(part.encode() + b"\0")
        for path in input_files(project, lang):
            h.update(f"{project.dir.show(path)}\0{project.dir.signature(path)}\0".encode())
        return h.hexdigest()

    def record_path(self, lang: str) -> Path:
        names = hashlib.sha256(repr(self.names).encode()).hexdigest()[:12]
        return self.options.out / FOLDER / f"{lang}-{names}.json"


def stamp_of(stat) -> list[int]:
    """A file's identity and state: [inode, size, modification time in ns]."""
    return [stat.st_ino, stat.st_size, stat.st_mtime_ns]


def _stamp(path: Path) -> list[int] | None:
    """A written file as it is now (stamp_of); None when it is gone."""
    try:
        return stamp_of(path.stat())
    except OSError:
        return None


def kept(inputs: BuildInputs, lang: str):
    """The language's files and warnings from its record, when the record is trusted (its key is
    `inputs.key(lang)` and every file is as written); None otherwise: draw the language."""
    from .build import BuiltFile
    from .report import BuildWarning

    try:
        record = json.loads(inputs.record_path(lang).read_text(encoding="utf-8"))
        if record.get("version") != VERSION or record.get("key") != inputs.key(lang):
            return None
        out = inputs.options.out
        files = [BuiltFile(lang, out / f["path"], f["pages"], f["cards"], f["faces"], f["bytes"], True, f["part"], kept=True)
                 for f in record["files"]]
        if any(_stamp(f.path) != entry["stamp"] for f, entry in zip(files, record["files"])):
            return None
        warnings = [BuildWarning(**w) for w in record["warnings"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None  # no record, or one this build cannot read: draw afresh
    return files, warnings


def remember(inputs: BuildInputs, lang: str, files, warnings) -> None:
    """Record the language's files just written (a language `--strict` refused has none)."""
    from ..errors import UsageError
    from .atomic import write_atomic

    out = inputs.options.out
    entries = []
    for f in files:
        stamp = f.stamp
        if not f.written or stamp is None:
            return
        entries.append({"path": f.path.relative_to(out).as_posix(), "stamp": stamp, "pages": f.pages, "cards": f.cards,
                        "faces": f.faces, "bytes": f.bytes, "part": f.part})
    record = {"version": VERSION, "key": inputs.key(lang), "files": entries, "warnings": [asdict(w) for w in warnings]}
    try:
        write_atomic(inputs.record_path(lang), json.dumps(record, ensure_ascii=False, indent=1) + "\n", durable=False)
    except (OSError, UsageError):
        pass  # a record is a convenience: a build that cannot leave one is still a good build


# ── layouts kept between builds (typeset/memo.py) ────────────────────────────
LAYOUTS_VERSION = 1


def layouts_path(options, lang: str, part: str) -> Path:
    """Where the layouts one part of one language used are kept: `<out>/.ppgen-cache/layouts-<lang>-<part>.bin`
    (a --faction build's card sheets apart from the whole set's)."""
    factions = "".join(f"-{f}" for f in options.factions)
    return options.out / FOLDER / f"layouts-{lang}-{part}{factions}.bin"


def recall_layouts(options, lang: str, part: str) -> dict:
    """The layouts the last build of this part used (digest → plain layout), when they were made
    by this ppgen (its code and libraries); {} otherwise. Read with `marshal`: the file is ppgen's
    own, in the build's output folder; one it cannot read is ignored."""
    import marshal

    try:
        stored = marshal.loads(layouts_path(options, lang, part).read_bytes())
        if stored.get("version") == LAYOUTS_VERSION and stored.get("code") == code_digest():
            return stored["layouts"]
    except (OSError, ValueError, EOFError, TypeError, KeyError, AttributeError):
        pass
    return {}


def keep_layouts(options, lang: str, part: str, layouts: dict) -> None:
    """Keep the layouts one part used for the next build (only those: the file never grows)."""
    import marshal

    from ..errors import UsageError
    from .atomic import write_atomic

    if not layouts:
        return
    data = marshal.dumps({"version": LAYOUTS_VERSION, "code": code_digest(), "layouts": layouts})
    try:
        write_atomic(layouts_path(options, lang, part), data, durable=False)
    except (OSError, UsageError):
        pass  # a convenience, as the records are
