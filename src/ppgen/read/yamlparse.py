"""PyYAML's side of read/yamlio.py: a text parsed into a Doc, with what ppgen files may not use
refused where it stands (see yamlio's notes). Imported only when a text has to be parsed: a
command whose files are all kept parsed in the cache folder never loads PyYAML (0.02 s)."""
from __future__ import annotations

import re

import yaml
from yaml.composer import ComposerError
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent, CollectionEndEvent, ScalarEvent, SequenceStartEvent, StreamEndEvent
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from ..errors import DataError, Problem, printable
from .yamlio import _FLOW_INDICATORS, _NULLS, KIND_TAGS, MAX_DEPTH, SCALAR_TAGS, YAML_TAG, Doc, _pure, shown_tag

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: same nodes, 5x faster


def loader_class():
    """libyaml's loader, or PyYAML's pure-Python one when PPGEN_PURE_YAML is set (to 1)."""
    return yaml.SafeLoader if _pure() else _Loader


class _Refused(Exception):
    """A construct ppgen files may not use, found while composing: errors.MESSAGES[key] at `mark`."""

    def __init__(self, mark, key: str, **params):
        self.mark = mark
        self.key = key
        self.params = params


def _pos(mark) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1)


def parse(text: str, shown: str, plain_strings: bool) -> Doc:
    """`text` (the file `shown`) parsed; DataError with file:line:col on any problem."""
    loader = loader_class()(text)
    try:
        node = _compose(loader, text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = _pos(mark) if mark else (0, 0)
        what = exc.problem or "invalid YAML"
        if exc.context and exc.context not in what:
            what = f"{what} ({exc.context})"
        opened = _unclosed_quote(text, line)
        if opened is not None:  # a quote left open swallows the entries after it: the error shows far below
            (line, col), key = opened, "yaml.unclosed-quote"
        elif exc.context == "while scanning a quoted scalar" and exc.context_mark is not None:
            (line, col), key = _pos(exc.context_mark), "yaml.unclosed-quote"  # never closed: where it opens, not the file's end
        elif (exc.context or "").startswith("while parsing a flow") and exc.context_mark is not None and _pos(exc.context_mark)[0] < line:
            (line, col), key = _pos(exc.context_mark), "yaml.unclosed-bracket"  # `def: [3, 4` seen lines below: where it opens
        elif "\t" in text and ("tab" in str(exc).lower() or _tab_near(text, line, col)):
            key = "yaml.syntax-tabs"
        elif col > 1024 and exc.problem in ("mapping values are not allowed in this context", "could not find expected ':'"):
            key = "yaml.syntax-long-key"
        else:
            key = _explained(exc.problem or "", exc.context or "")
        params = {"problem": what} if key == "yaml.syntax" else {}
        raise DataError([Problem.keyed(shown, line, col, key, "yaml", **params)]) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow, e.g. a raw control character
        char = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        at = exc.position  # a character index (PyYAML) or a UTF-8 byte offset (libyaml)
        if not (0 <= at < len(text) and ord(text[at]) == char):
            at = len(text.encode("utf-8")[: exc.position].decode("utf-8", "ignore"))
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        raise DataError([Problem.keyed(shown, line, col, "yaml.character", "yaml", char=f"{char:04X}")]) from None
    except yaml.YAMLError as exc:
        raise DataError([Problem.keyed(shown, 0, 0, "yaml.syntax", "yaml", problem=str(exc))]) from None
    except _Refused as exc:
        line, col = _pos(exc.mark)
        raise DataError([Problem.keyed(shown, line, col, exc.key, "yaml", **exc.params)]) from None
    finally:
        loader.dispose()
    doc = Doc(shown, None)
    problems: list[Problem] = []
    if node is None:
        doc.data = None
        return doc
    doc.data = _convert(node, (), doc, problems, plain_strings)
    if problems:
        first = min((p.line for p in problems if p.line), default=0)
        opened = _unclosed_quote(text, first, siblings=True) if first else None
        if opened is not None:  # a quote left open, closed by another's far below: the "duplicate key" there is its doing
            raise DataError([Problem.keyed(shown, *opened, "yaml.unclosed-quote", "yaml")])
        raise DataError(problems)
    return doc


def _compose(loader, text: str = ""):
    """The document's node tree, built from the parser's events without recursion.

    PyYAML's own composer recurses once per nesting level — in C with libyaml,
    where a file of 100,000 '[' overflows the stack and kills the process
    before Python's recursion limit is reached. Here the depth is counted and
    refused at MAX_DEPTH, and an alias is refused where it stands, before
    anything could be expanded ("billion laughs").
    """
    loader.get_event()  # StreamStart
    if loader.check_event(StreamEndEvent):
        return None
    start = loader.get_event()  # DocumentStart
    root, open_nodes, pending_keys = None, [], []
    while root is None or open_nodes:
        event = loader.get_event()
        if isinstance(event, AliasEvent):
            raise _Refused(event.start_mark, "yaml.alias")
        if isinstance(event, CollectionEndEvent):
            open_nodes.pop().end_mark = event.end_mark
            pending_keys.pop()
            continue
        if isinstance(event, ScalarEvent):
            node = ScalarNode(_scalar_tag(loader, event, text), event.value, event.start_mark, event.end_mark, style=event.style)
        else:
            if len(open_nodes) >= MAX_DEPTH:
                raise _Refused(event.start_mark, "yaml.nesting", max=MAX_DEPTH)
            kind = SequenceNode if isinstance(event, SequenceStartEvent) else MappingNode
            node = kind(_tag(loader, kind, event, None), [], event.start_mark, None, flow_style=event.flow_style)
        _attach(node, open_nodes, pending_keys)
        if root is None:
            root = node
        if not isinstance(node, ScalarNode):
            open_nodes.append(node)
            pending_keys.append(None)
    loader.get_event()  # DocumentEnd
    if not loader.check_event(StreamEndEvent):
        raise ComposerError("expected a single document in the stream", start.start_mark,
                            "but found another document", loader.get_event().start_mark)
    return root


def _tag(loader, kind, event, value):
    if event.tag not in (None, "!"):
        return event.tag
    return loader.resolve(kind, value, event.implicit)


def _scalar_tag(loader, event, text: str) -> str:
    """A scalar's tag. A tag glued to a flow indicator (`[ !!str, x ]`) is read by libyaml as
    the tag of an empty value and by the pure-Python loader as the tag `!!str,`: both loaders
    report it as the tag `!!str,`, which is refused."""
    tag = _tag(loader, ScalarNode, event, event.value)
    if event.tag not in (None, "!") and event.value == "" and not event.style:  # plain: None (pure) or "" (libyaml)
        mark = event.end_mark
        lines = text.split("\n", mark.line + 1)
        after = lines[mark.line][mark.column: mark.column + 1] if mark.line < len(lines) else ""
        if after and after in _FLOW_INDICATORS:
            tag += after
    return tag


def _attach(node, open_nodes: list, pending_keys: list) -> None:
    """Add `node` to the innermost open sequence or mapping (as a key, then as its value)."""
    if not open_nodes:
        return
    parent = open_nodes[-1]
    if isinstance(parent, SequenceNode):
        parent.value.append(node)
    elif pending_keys[-1] is None:
        pending_keys[-1] = node
    else:
        parent.value.append((pending_keys[-1], node))
        pending_keys[-1] = None


# What PyYAML's problems mean for a person (libyaml and the pure-Python loader word them
# differently): (words in the problem or its context, message key). Others keep PyYAML's words.
_EXPLAINED = (
    ("while scanning a quoted scalar", "yaml.unclosed-quote"),
    ("while parsing a flow", "yaml.unclosed-bracket"),
    ("mapping values are not allowed", "yaml.colon"),
    ("cannot start any token", "yaml.start-character"),
    ("while parsing a block", "yaml.indentation"),
)


_KEY_LINE = re.compile(r"\n[ \t]*[\w.-]+:(?:[ \t]|$)", re.M)


def _unclosed_quote(text: str, error_line: int, siblings: bool = False) -> tuple[int, int] | None:
    """Where a quoted text that was never closed begins, when it caused an error further down: the
    last quoted scalar before the error that runs over several lines and holds what reads as a key
    of its own ("…\n  src: 1234abcd"): the quote of the next entry closed it, far below.
    `siblings`: only a key (or a list's item) indented no deeper than the line the quote opens on
    counts — the file parsed, and a text on several lines may well hold "Note: …" of its own."""
    found = None
    if '"' not in text and "'" not in text:
        return None
    try:
        for token in yaml.scan(text, Loader=loader_class()):  # libyaml's scanner: a tenth of the pure one's time
            if isinstance(token, yaml.ScalarToken) and token.style in ('"', "'") and token.end_mark.line > token.start_mark.line:
                if token.start_mark.line + 1 < error_line and _swallows_keys(text, token, siblings):
                    found = _pos(token.start_mark)
    except yaml.YAMLError:
        pass
    return found


def _swallows_keys(text: str, token, siblings: bool) -> bool:
    """Whether a quoted scalar holds a line that reads as a key (with `siblings`: one of its own
    mapping's, or an item of a list around it, by its indentation)."""
    inside = text[token.start_mark.index:token.end_mark.index]
    if not siblings:
        return _KEY_LINE.search(inside) is not None
    line_start = text.rfind("\n", 0, token.start_mark.index) + 1
    indent = len(text[line_start:token.start_mark.index]) - len(text[line_start:token.start_mark.index].lstrip(" "))
    return any(len(m.group(1)) <= indent for m in _SIBLING_LINE.finditer(inside))


_SIBLING_LINE = re.compile(r"\n( *)(?:[\w.-]+:(?:[ \t]|$)|- )", re.M)


def _explained(problem: str, context: str) -> str:
    return next((key for words, key in _EXPLAINED if words in problem or words in context), "yaml.syntax")


def _tab_near(text: str, line: int, col: int) -> bool:
    """Whether the line of a YAML error has a tab up to the error's column (its indentation)."""
    lines = text.split("\n")
    return 0 < line <= len(lines) and "\t" in lines[line - 1][: max(col, 1)]


_constructor = SafeConstructor()


def _scalar(node: ScalarNode, plain_strings: bool):
    """The value of a scalar; ValueError when the value does not fit its tag (`!!int seven`)."""
    if node.tag == YAML_TAG + "str":
        return node.value
    if node.tag == YAML_TAG + "null" and node.value not in _NULLS:
        raise ValueError(node.value)
    try:
        value = _constructor.construct_object(node, deep=True)
    except Exception:  # the constructors raise ValueError, KeyError, TypeError… on a value that does not fit
        raise ValueError(node.value) from None
    return node.value if plain_strings else value


def _tag_problem(node, doc: Doc) -> Problem | None:
    """A tag ppgen files may not use, or one on a node it does not fit."""
    kind = "list" if isinstance(node, SequenceNode) else "mapping" if isinstance(node, MappingNode) else None
    allowed = {KIND_TAGS[kind]} if kind else SCALAR_TAGS
    if node.tag in allowed:
        return None
    line, col = _pos(node.start_mark)
    tag = shown_tag(node.tag)
    if kind and node.tag in SCALAR_TAGS | set(KIND_TAGS.values()):
        key = f"yaml.tag-on-{kind}"
    else:
        key = "yaml.tag-glued" if any(ch in tag for ch in _FLOW_INDICATORS + ":") else "yaml.tag"
    return Problem.keyed(doc.file, line, col, key, "yaml", tag=tag)


def _convert(node, path, doc: Doc, problems: list[Problem], plain_strings: bool):
    doc.value_marks[path] = _pos(node.start_mark)
    wrong_tag = _tag_problem(node, doc)
    if wrong_tag:
        problems.append(wrong_tag)
        return None
    if isinstance(node, ScalarNode):
        try:
            return _scalar(node, plain_strings)
        except ValueError:
            line, col = _pos(node.start_mark)
            problems.append(Problem.keyed(doc.file, line, col, "yaml.tag-value", "yaml", value=printable(node.value, 40), tag=shown_tag(node.tag)))
            return None
    if isinstance(node, SequenceNode):
        return [_convert(n, path + (i,), doc, problems, plain_strings) for i, n in enumerate(node.value)]
    if isinstance(node, MappingNode):
        out: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                line, col = _pos(key_node.start_mark)
                problems.append(Problem.keyed(doc.file, line, col, "yaml.key-not-text", "yaml"))
                continue
            key = key_node.value
            kpath = path + (key,)
            if key in out:
                first = doc.key_marks[kpath][0]
                line, col = _pos(key_node.start_mark)
                problems.append(Problem.keyed(doc.file, line, col, "yaml.duplicate-key", "duplicate", name=key, first=first))
                continue
            doc.key_marks[kpath] = _pos(key_node.start_mark)
            out[key] = _convert(value_node, kpath, doc, problems, plain_strings)
        return out
    return None
