"""Minimal edits of a locale file that a person wrote: everything not edited stays byte-identical.

`ppgen i18n sync` and `ppgen i18n import` change a few values, add a few
entries or a `status:` line, and must keep the translator's comments, key
order, blank lines, quoting and indentation exactly. A YAML round-trip
library re-indents, re-folds long lines and reads an unquoted `src: 4e545960`
as the float infinity, so this module edits the *text* instead: it parses the
file once to find where every entry and field starts and ends (PyYAML marks),
turns each requested change into a splice of that text, applies the splices,
and then re-reads the result and checks that it holds exactly the intended
data before anyone writes it.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from ..errors import DataError, PpgenError
from ..read.yamlio import loader_class, parse_yaml

# The order of fields in an entry; a new field goes after the last one before it that exists.
FIELD_ORDER = ("text", "src", "status", "note", "checked")


class EditError(PpgenError):
    """A change that cannot be made without touching what the translator wrote."""


@dataclass
class _Entry:
    key: str
    key_node: ScalarNode
    value: yaml.Node
    fields: dict = field(default_factory=dict)  # name -> (key node, value node), for mapping entries


def render_scalar(value: str, flow: bool = False, prefer: str | None = None) -> str:
    """A YAML scalar for `value`, on one line: plain when safe, else quoted (double unless `prefer` is "'")."""
    inf = float("inf")
    if prefer is None and "\n" not in value:
        out = yaml.safe_dump({"x": value}, allow_unicode=True, width=inf)[3:-1]
        if not out.startswith(("'", '"')) and not (flow and any(c in out for c in ",[]{}")):
            return out
    if prefer == "'" and "\n" not in value:
        return yaml.safe_dump(value, default_style="'", allow_unicode=True, width=inf).rstrip("\n")
    return yaml.safe_dump(value, default_style='"', allow_unicode=True, width=inf).rstrip("\n")


def block_scalar(value: str, style: str, pad: str, header_rest: str = "") -> str | None:
    """`value` as a YAML block scalar of `style` ("|" literal, ">" folded) whose lines start with
    `pad`, from its header (`header_rest` after the indicator: a comment, as it was written) to its
    last line break; its chomping indicator says how many line breaks end it (`-` none, `+` more
    than one). None where a block cannot hold it as it is: a line that starts with a space or a tab
    (its indentation would be read as the block's), a carriage return."""
    core = value.rstrip("\n")
    if re.search(r"(?:^|\n)[ \t]|\r", core):
        return None
    trailing = len(value) - len(core)
    if style == ">":  # folded: a single line break reads as a space, so each break is written as one more
        core = re.sub(r"\n+", lambda m: "\n" * (len(m.group()) + 1), core)
    chomp = "-" if trailing == 0 else "" if trailing == 1 else "+"
    lines = "".join(f"{pad}{line}\n" if line else "\n" for line in core.split("\n")) if core else ""
    block = f"{style}{chomp}{header_rest}\n{lines}" + "\n" * max(trailing - 1, 0)
    try:  # what YAML reads back is the value, or no block at all (leading line breaks fold in ways of their own)
        same = yaml.safe_load(f"x: {block}") == {"x": value}
    except yaml.YAMLError:
        same = False
    return block if same else None


def _last_leaf(node: yaml.Node) -> yaml.Node:
    """The node whose end is the end of `node` in the text (block collections end at their last child)."""
    while isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style and node.value:
        last = node.value[-1]
        node = last[1] if isinstance(node, MappingNode) else last
    return node


def _position_loader(text: str):
    """A loader whose marks are character indexes into `text`: libyaml's are (5× faster), except
    that it does not count a byte-order mark; PyYAML's pure-Python one otherwise."""
    return yaml.SafeLoader if text.startswith("\ufeff") else loader_class()


class LocaleText:
    """A locale file's text, the positions of its entries, and the edits asked of it."""

    def __init__(self, text: str, shown: str):
        self.text = text
        self.shown = shown
        self.data = parse_yaml(text, shown, plain_strings=True).data or {}  # raises DataError on bad YAML
        if not isinstance(self.data, dict):
            raise EditError(f"{shown}: a locale file must be a mapping of keys to texts")
        root = yaml.compose(text, Loader=_position_loader(text))
        self.entries: dict[str, _Entry] = {}
        for key_node, value in (root.value if root is not None else []):
            entry = _Entry(key_node.value, key_node, value)
            if isinstance(value, MappingNode):
                entry.fields = {k.value: (k, v) for k, v in value.value}
            self.entries[entry.key] = entry
        self._sets: dict[str, dict[str, str]] = {}
        self._removes: dict[str, list[str]] = {}
        self._inserts: list[tuple[str | None, str, dict]] = []
        self._deleted: list[str] = []
        self.indent = self._detect_indent()

    # ── positions ────────────────────────────────────────────────────
    def _detect_indent(self) -> int:
        for e in self.entries.values():
            if isinstance(e.value, MappingNode) and not e.value.flow_style and e.value.value:
                return e.value.value[0][0].start_mark.column - e.key_node.start_mark.column
        return 2

    def _line_end(self, index: int) -> int:
        """Index just past the line on which `index` lies (past its newline)."""
        nl = self.text.find("\n", index)
        return len(self.text) if nl < 0 else nl + 1

    def _end_of(self, node: yaml.Node) -> int:
        """Index just past the line on which `node` ends (comments on that line included)."""
        end = _last_leaf(node).end_mark.index
        while end > 0 and self.text[end - 1] in " \t\n":
            end -= 1
        return self._line_end(max(end - 1, 0))

    def _line_start(self, index: int) -> int:
        return self.text.rfind("\n", 0, index) + 1

    def line_of(self, index: int) -> int:
        return self.text.count("\n", 0, index) + 1

    def insertion_point(self, after: str | None) -> int:
        """Where a new entry following `after` goes (None: before the first entry)."""
        if after is not None:
            return self._end_of(self.entries[after].value)
        if self.entries:
            first = next(iter(self.entries.values()))
            return self._line_start(first.key_node.start_mark.index)
        return len(self.text)

    def insertion_line(self, after: str | None) -> int:
        index = self.insertion_point(after)
        return self.line_of(index) if index < len(self.text) else self.text.count("\n") + 1

    # ── requests ─────────────────────────────────────────────────────
    def set_field(self, key: str, name: str, value: str) -> None:
        self._sets.setdefault(key, {})[name] = value

    def remove_field(self, key: str, name: str) -> None:
        self._removes.setdefault(key, []).append(name)

    def insert_entry(self, after: str | None, key: str, fields: dict[str, str]) -> None:
        self._inserts.append((after, key, fields))

    def delete_entry(self, key: str) -> None:
        self._deleted.append(key)

    @property
    def changed(self) -> bool:
        return bool(self._sets or self._removes or self._inserts or self._deleted)

    # ── applying ─────────────────────────────────────────────────────
    def result(self) -> str:
        """The edited text, verified: it parses, and holds exactly the intended data."""
        splices: list[tuple[int, int, int, str]] = []
        seq = 0

        def splice(start: int, end: int, text: str) -> None:
            nonlocal seq
            seq += 1
            splices.append((start, end, seq, text))

        for key in sorted(set(self._sets) | set(self._removes), key=lambda k: self.entries[k].key_node.start_mark.index):
            for start, end, text in self._entry_splices(key, self._sets.get(key, {}), self._removes.get(key, [])):
                splice(start, end, text)
        for after, key, fields in self._inserts:
            splice(*(self.insertion_point(after),) * 2, self._block(key, fields))
        for key in self._deleted:
            e = self.entries[key]
            splice(self._line_start(e.key_node.start_mark.index), self._end_of(e.value), "")
        ordered = sorted(splices, key=lambda s: (s[0], s[2]))
        for a, b in zip(ordered, ordered[1:]):
            if b[0] < a[1]:
                raise EditError(f"{self.shown}: two edits overlap near line {self.line_of(b[0])}")
        text = self.text
        for start, end, _, new in sorted(splices, key=lambda s: (s[0], s[2]), reverse=True):
            text = text[:start] + new + text[end:]
        self._verify(text)
        return text

    def _block(self, key: str, fields: dict[str, str]) -> str:
        pad = " " * self.indent
        lines = [f"{key}:"] + [f"{pad}{name}: {self._render(name, value)}" for name, value in _ordered(fields)]
        lead = "" if not self.text or self.text.endswith("\n") else "\n"
        return lead + "\n".join(lines) + "\n"

    @staticmethod
    def _render(name: str, value, flow: bool = False, prefer: str | None = None) -> str:
        value = str(value)
        if name in ("src", "status") and re.fullmatch(r"[a-z0-9-]+", value):
            return f"{prefer}{value}{prefer}" if prefer else value  # hashes stay plain, as ppgen reads them
        return render_scalar(value, flow, prefer)

    def _entry_splices(self, key: str, sets: dict, removes: list):
        e = self.entries[key]
        if isinstance(e.value, ScalarNode):  # `key: text` → a block entry
            fields = {"text": sets.get("text", e.value.value), **{k: v for k, v in sets.items() if k != "text"}}
            pad = " " * (e.key_node.start_mark.column + self.indent)
            end = e.value.end_mark.index
            text_field = None
            if e.value.style in ("|", ">"):  # a block scalar ends past its line break: the entry's new lines end before it
                while end > 0 and self.text[end - 1] == "\n":
                    end -= 1
                text_field = block_scalar(fields["text"], e.value.style, pad + " " * self.indent)
            body = "".join(f"\n{pad}{name}: " + (text_field.rstrip("\n") if name == "text" and text_field else self._render(name, value))
                           for name, value in _ordered(fields))
            colon = self.text.index(":", e.key_node.end_mark.index)
            yield colon + 1, end, body
            return
        if not isinstance(e.value, MappingNode):
            raise EditError(f"{self.shown}:{self.line_of(e.value.start_mark.index)}: '{key}' is not an entry ppgen can edit")
        flow = bool(e.value.flow_style)
        pending: dict[int, list[tuple[str, str]]] = {}
        for name, value in _ordered(sets):
            if name in e.fields:
                node = e.fields[name][1]
                if node.style in ("|", ">") and not flow:
                    yield self._block_splice(e.fields[name][0], node, str(value))
                    continue
                prefer = node.style if node.style in ("'", '"') else None
                yield node.start_mark.index, node.end_mark.index, self._render(name, value, flow, prefer)
                continue
            anchor = self._anchor_field(e, name)
            pending.setdefault(anchor, []).append((name, value))
        for anchor, items in pending.items():
            if flow:
                close = e.value.end_mark.index - 1  # the '}'
                while self.text[close - 1] in " \t\n":
                    close -= 1
                sep = ", " if e.fields else ""
                yield close, close, sep + ", ".join(f"{n}: {self._render(n, v, True)}" for n, v in items)
            else:
                knode, vnode = e.fields[list(e.fields)[anchor]]
                pad = " " * knode.start_mark.column
                at = self._end_of(vnode)
                yield at, at, "".join(f"{pad}{n}: {self._render(n, v)}\n" for n, v in items)
        for name in removes:
            if name not in e.fields:
                continue
            names = list(e.fields)
            knode, vnode = e.fields[name]
            if flow:
                i = names.index(name)
                if i > 0:
                    yield _last_leaf(e.fields[names[i - 1]][1]).end_mark.index, _last_leaf(vnode).end_mark.index, ""
                elif len(names) > 1:
                    yield knode.start_mark.index, e.fields[names[1]][0].start_mark.index, ""
                else:
                    raise EditError(f"{self.shown}: cannot remove the only field of '{key}'")
                continue
            start = self._line_start(knode.start_mark.index)
            if self.text[start:knode.start_mark.index].strip():
                raise EditError(f"{self.shown}:{self.line_of(start)}: '{key}.{name}' does not start its own line; edit it by hand")
            end = self._end_of(vnode)
            rest = self.text[_last_leaf(vnode).end_mark.index:end].strip()
            keep = f"{' ' * knode.start_mark.column}{rest}\n" if rest.startswith("#") else ""
            yield start, end, keep

    def _block_splice(self, key_node: ScalarNode, node: ScalarNode, value: str) -> tuple[int, int, str]:
        """The splice that gives a block scalar (`|`, `>`) field `value`: a block of the same kind at the
        same indentation, its header's comment kept, the blank lines after it kept (they are not its
        text, unless it keeps them: `|+`); a value no block can hold exactly, quoted on the line."""
        start, end = node.start_mark.index, node.end_mark.index
        header_end = self.text.index("\n", start)
        indicator, rest = re.match(r"([|>][-+0-9]*)(.*)", self.text[start:header_end]).groups()
        if "+" not in indicator:
            end = start + len(self.text[start:end].rstrip("\n")) + 1
        lines = [line for line in self.text[header_end + 1:end].split("\n") if line.strip()]
        pad = min((len(line) - len(line.lstrip(" ")) for line in lines), default=key_node.start_mark.column + self.indent)
        block = block_scalar(value, node.style, " " * pad, rest)
        if block is not None and block.startswith(("|+", ">+")) and self.text.startswith("\n", end):
            block = None  # a block that keeps its last line breaks would take the blank lines after it too
        return start, end, block if block is not None else render_scalar(value) + "\n"

    @staticmethod
    def _anchor_field(e: _Entry, name: str) -> int:
        """Index (in e.fields) of the field after which a new field `name` goes."""
        rank = FIELD_ORDER.index(name) if name in FIELD_ORDER else len(FIELD_ORDER)
        before = [i for i, n in enumerate(e.fields) if n in FIELD_ORDER and FIELD_ORDER.index(n) < rank]
        return max(before) if before else len(e.fields) - 1

    def _expected(self) -> dict:
        data = copy.deepcopy(self.data)
        for key, sets in self._sets.items():
            value = data[key]
            if isinstance(value, str):
                value = data[key] = {"text": value}
            value.update({k: str(v) for k, v in sets.items()})
        for key, names in self._removes.items():
            for name in names:
                data[key].pop(name, None)
        for key in self._deleted:
            del data[key]
        keys = list(data)
        inserted = self._inserted_keys()  # (made once: made per step, a new locale's 831 keys took 40 s)
        for after, key, fields in self._inserts:
            pos = keys.index(after) + 1 if after is not None else 0
            while pos < len(keys) and keys[pos] in inserted:
                pos += 1
            keys.insert(pos, key)
            data[key] = {k: str(v) for k, v in fields.items()}
        return {k: data[k] for k in keys}

    def _inserted_keys(self) -> set:
        return {key for _, key, _ in self._inserts}

    def _verify(self, text: str) -> None:
        try:
            got = parse_yaml(text, self.shown, plain_strings=True).data or {}
        except DataError as exc:
            raise EditError(f"{self.shown}: an edit would make invalid YAML ({exc}); nothing was written") from None
        expected = self._expected()
        if got != expected or list(got) != list(expected):
            bad = next((k for k in expected if got.get(k) != expected[k]), None) or "key order"
            raise EditError(f"{self.shown}: an edit did not come out as intended ({bad}); nothing was written")


def _ordered(fields: dict) -> list[tuple[str, str]]:
    rank = {name: i for i, name in enumerate(FIELD_ORDER)}
    return sorted(fields.items(), key=lambda kv: rank.get(kv[0], len(FIELD_ORDER)))


@dataclass(frozen=True)
class FileStyle:
    """What reading normalised away and writing must put back: a BOM, CRLF line ends."""

    bom: bool = False
    crlf: bool = False


def read_locale_file(path, root=None) -> tuple[str, FileStyle]:
    """A locale file's text (LF line ends) and its byte-level style."""
    from ..read.files import read_text

    text = read_text(path, root)
    with open(path, "rb") as fh:
        head = fh.read(3)
        raw = head + fh.read()
    return text, FileStyle(bom=head == b"\xef\xbb\xbf", crlf=b"\r\n" in raw)


def write_locale_file(path, text: str, style: FileStyle) -> None:
    """Write a locale file atomically, in the style it was read in."""
    from ..write.atomic import write_atomic

    if style.crlf:
        text = text.replace("\n", "\r\n")
    write_atomic(path, (b"\xef\xbb\xbf" if style.bom else b"") + text.encode("utf-8"))
