"""PDFs ppgen drew, joined into one at the level of their bytes: the assembled set.

Every object of every part is copied as ReportLab wrote it — a content stream, a font program,
a picture is never decoded, parsed or encoded again — under a new object number, with the
references in its dictionary renumbered to match; the joined file gets a page tree, an outline,
print hints, document information and a trailer of its own. Only dictionaries are read, so
joining the 1.3 MB Japanese set takes a few hundredths of a second (pypdf, which parses and
writes back every object, took a third of a second of every build, after the last part was drawn).

    join = Join()
    join.append(rulebook_pdf, outline=True)      # its pages, and its own outline entries
    join.append(cards_pdf)
    join.add_item("Cards", page_index)           # an outline entry (returns it: a parent for others)
    data = join.write(title, lang, "DuplexFlipLongEdge", made_from)

Font subsets: every part numbers its subsets from AAAAAA again, so the same tag stood for
different subsets (ISO 32000-1 §9.6.4). A subset two parts embed identically (same name,
program, widths and ToUnicode map) is kept once; every other subset gets six letters from a
hash of its name and program, the next hash in line when two would share one.

Pictures: one two parts embed identically (the same dictionary, data and soft mask: a card's
art in the rulebook's pictures and on the card sheets) is kept once.

What is read is what ReportLab writes (one cross-reference table, objects of generation 0, a
flat page tree with every page's attributes on the page): anything else raises JoinError, a
bug in ppgen, never in a user's files — every PDF joined is one ppgen has just drawn.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field


class JoinError(ValueError):
    """A PDF this module cannot join (not one ReportLab wrote for ppgen)."""


# ── reading a PDF ReportLab wrote ────────────────────────────────────────────
_REF = re.compile(rb"(?<![\w.+-])(\d+) 0 R(?![\w])")
_PAGE = re.compile(rb"/Type /Page(?![\w])")
_STREAM = re.compile(rb">>\s*stream\r?\n")
_XREF_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_TOKEN = re.compile(rb"(?:\s|%[^\r\n]*)*(<<|>>|\[|\]|\(|<[0-9A-Fa-f\s]*>|/[^\s/<>\[\]()]*|(\d+) 0 R(?![\w])|[^\s/<>\[\]()]+)")
_CATALOG_KEYS = {b"/Type", b"/Pages", b"/Outlines", b"/PageMode", b"/ViewerPreferences", b"/Lang"}  # what the join makes anew
_SUBSET_NAME = re.compile(rb"/BaseFont /[A-Z]{6}\+([^\s/<>\[\]()]+)")
_DESCRIPTOR = re.compile(rb"/FontDescriptor (\d+) 0 R")
_FONT_FILE = re.compile(rb"/FontFile[23]? (\d+) 0 R")
_TO_UNICODE = re.compile(rb"/ToUnicode (\d+) 0 R")
_WIDTHS = re.compile(rb"/Widths \[([^\]]*)\]")
_FIRST_CHAR = re.compile(rb"/FirstChar (\d+)")
_PAREN = re.compile(rb"[()\\]")


@dataclass(frozen=True)
class Ref:
    number: int


def _string_end(data: bytes, start: int) -> int:
    """The index after the literal string opening at `start` (balanced parentheses, escapes)."""
    depth, i = 0, start
    while True:
        found = _PAREN.search(data, i)
        if found is None:
            raise JoinError(f"a string that never ends near {data[start:start + 40]!r}")
        i = found.start()
        char = data[i]
        if char == 0x5C:  # backslash: the next byte is escaped
            i += 2
            continue
        depth += 1 if char == 0x28 else -1
        i += 1
        if depth == 0:
            return i



def parse_value(data: bytes, pos: int = 0):
    """(value, end) of the PDF object at `pos`: dict, list, Ref, or the token's raw bytes
    (names keep their slash, strings their delimiters)."""
    match = _TOKEN.match(data, pos)
    if match is None:
        raise JoinError(f"unreadable PDF object near {data[pos:pos + 40]!r}")
    token, end = match.group(1), match.end()
    if match.group(2) is not None:
        return Ref(int(match.group(2))), end
    if token == b"<<":
        value = {}
        while True:
            key, end = parse_value(data, end)
            if key == b">>":
                return value, end
            value[key], end = parse_value(data, end)
    if token == b"[":
        items = []
        while True:
            item, end = parse_value(data, end)
            if item == b"]":
                return items, end
            items.append(item)
    if token == b"(":
        end = _string_end(data, match.end() - 1)
        return data[match.end() - 1:end], end
    return token, end


class Source:
    """One PDF ReportLab wrote: where each object is, its pages, outline and fonts (nothing is
    parsed until asked for)."""

    def __init__(self, data: bytes):
        self.data = data
        self.version = data[5:8]
        self._spans = self._locate()
        self._heads: dict[int, bytes] = {}
        self._parsed: dict[int, object] = {}
        self._refs: dict[int, list[int]] = {}
        trailer = data.rfind(b"trailer")
        if trailer < 0:
            raise JoinError("no trailer")
        self.trailer, _ = parse_value(data, data.index(b"<<", trailer))
        self.catalog = self.parsed(self.trailer[b"/Root"].number)
        lost = set(self.catalog) - _CATALOG_KEYS
        if lost:  # named destinations, page labels, forms…: joining would drop them without a word
            raise JoinError(f"a part's catalog holds {', '.join(sorted(k.decode() for k in lost))}, which joining does not carry over")
        self.page_tree: set[int] = set()
        self.pages = [Page(self, number) for number in self._leaves(self.catalog[b"/Pages"].number)]

    def _locate(self) -> dict[int, tuple[int, int]]:
        """Object number → (start, end) of its bytes, from the cross-reference table."""
        data = self.data
        start = int(data[data.rindex(b"startxref") + 9:].split()[0])
        if not data.startswith(b"xref", start):
            raise JoinError("no cross-reference table (a stream or a damaged one)")
        lines = data[start:data.index(b"trailer", start)].split(b"\n")
        first, count = (int(x) for x in lines[1].split())
        offsets = {}
        for n, line in enumerate(lines[2:2 + count]):
            entry = _XREF_ENTRY.match(line.strip())
            if entry is None:
                raise JoinError(f"unreadable cross-reference entry {line!r}")
            if entry[3] == b"n":
                if entry[2] != b"00000":
                    raise JoinError("an object of a generation other than 0")
                offsets[first + n] = int(entry[1])
        ends = sorted(offsets.values()) + [start]
        following = dict(zip(ends, ends[1:]))
        return {number: (offset, following[offset]) for number, offset in offsets.items()}

    def _body(self, number: int) -> tuple[int, int, int]:
        """(start of its value, end of its value, end of the object) of object `number`."""
        try:
            start, end = self._spans[number]
        except KeyError:
            raise JoinError(f"object {number} is not in the file") from None
        header = self.data.index(b"obj", start, end) + 3
        stream = _STREAM.search(self.data, header, end)
        if stream is not None:
            return header, stream.start() + 2, end
        return header, self.data.rindex(b"endobj", header, end), end

    def head(self, number: int) -> bytes:
        """Object `number`'s value (a stream's dictionary), as written."""
        head = self._heads.get(number)
        if head is None:
            start, stop, _ = self._body(number)
            head = self._heads[number] = self.data[start:stop]
        return head

    def tail(self, number: int) -> bytes:
        """What follows the value: `stream … endstream` and `endobj`, as written."""
        _, stop, end = self._body(number)
        return self.data[stop:end]

    def parsed(self, number: int):
        if number not in self._parsed:
            self._parsed[number] = parse_value(self.head(number))[0]
        return self._parsed[number]

    def refs(self, number: int) -> list[int]:
        """The objects object `number`'s value refers to, in order."""
        found = self._refs.get(number)
        if found is None:
            head = self.head(number)
            found = self._refs[number] = [int(m[1]) for m in _references(head)]
        return found

    def _leaves(self, node: int) -> list[int]:
        """The pages under a node of the page tree, in order (its inner nodes noted in page_tree)."""
        if _PAGE.search(self.head(node)):
            return [node]
        value = self.parsed(node)
        self.page_tree.add(node)
        if set(value) - {b"/Type", b"/Kids", b"/Count", b"/Parent"}:
            raise JoinError("a page tree node with inherited attributes")
        return [leaf for kid in value[b"/Kids"] for leaf in self._leaves(kid.number)]

    def outline(self) -> list["Item"]:
        """The file's own outline entries (each with its children)."""
        root = self.catalog.get(b"/Outlines")
        return self._items(self.parsed(root.number).get(b"/First")) if root is not None else []

    def _items(self, ref) -> list["Item"]:
        items = []
        while ref is not None:
            value, written = self.parsed(ref.number), _written(self.head(ref.number))
            target = written.get(b"/Dest", written.get(b"/A"))
            if target is None:
                raise JoinError("an outline entry going nowhere")
            items.append(Item(written[b"/Title"], (self, target), self._items(value.get(b"/First")),
                              int(value.get(b"/Count", b"0")) >= 0))
            ref = value.get(b"/Next")
        return items


def _written(head: bytes) -> dict[bytes, bytes]:
    """Each key of the dictionary `head` → its value's bytes as written."""
    opening = _TOKEN.match(head)
    if opening is None or opening[1] != b"<<":
        raise JoinError(f"not a dictionary: {head[:40]!r}")
    found, pos = {}, opening.end()
    while True:
        key, pos = parse_value(head, pos)
        if key == b">>":
            return found
        start = pos
        _, pos = parse_value(head, pos)
        found[key] = head[start:pos].strip()


def _references(head: bytes):
    """Every reference in `head` (a regular expression's match each), skipping literal strings
    (a title may hold "1 0 R"). Without " 0 R" there is none to look for; without a literal
    string, one scan finds them all (no generator of matches between: it cost as much as the
    scan)."""
    if b" 0 R" not in head:
        return ()
    if b"(" not in head:
        return _REF.finditer(head)
    return _refs_between_strings(head)


def _refs_between_strings(head: bytes):
    """The references of a `head` that holds literal strings, found in the stretches between them."""
    pos = 0
    while True:
        opening = head.find(b"(", pos)
        yield from _REF.finditer(head, pos, len(head) if opening < 0 else opening)
        if opening < 0:
            return
        pos = _string_end(head, opening)


def renumber(head: bytes, new_number) -> bytes:
    """`head` with each reference to object n changed to `new_number(n)`."""
    out, pos = [], 0
    for match in _references(head):
        out += (head[pos:match.start()], b"%d 0 R" % new_number(int(match[1])))
        pos = match.end()
    if not out:
        return head
    out.append(head[pos:])
    return b"".join(out)


@dataclass(frozen=True)
class Page:
    source: Source
    number: int

    @property
    def size(self) -> tuple[float, float]:
        x0, y0, x1, y1 = (float(v) for v in self.source.parsed(self.number)[b"/MediaBox"])
        return (x1 - x0, y1 - y0)


@dataclass
class Item:
    """An outline entry: its title (a PDF string, as written), where it goes — (source, the
    /Dest or /A value as written) or the index of a page of the joined file — its children and
    whether it shows them."""

    title: bytes
    target: object
    children: list = field(default_factory=list)
    open: bool = True

    def visible(self) -> int:
        """The entries under it shown when the outline opens (its /Count, ISO 32000-1 §12.3.3)."""
        return sum(1 + child.visible() for child in self.children) if self.open else 0


def text_string(text: str) -> bytes:
    """A PDF text string: plain ASCII as it is, anything else UTF-16BE with its byte order mark
    (in hexadecimal)."""
    if text.isascii() and text.isprintable() and not set(text) & set("()\\"):
        return b"(" + text.encode() + b")"
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"


# ── joining ──────────────────────────────────────────────────────────────────
class Join:
    """The joined file being put together: its pages (Page, in order) and outline (Item)."""

    def __init__(self):
        self.pages: list[Page] = []
        self.outline: list[Item] = []

    def append(self, data: bytes, outline: bool = False) -> None:
        """Every page of the PDF `data`, after the pages so far; `outline`: and its outline entries."""
        source = Source(data)
        self.pages += source.pages
        if outline:
            self.outline += source.outline()

    def add_page(self, page: Page) -> None:
        self.pages.append(page)

    def insert_page(self, page: Page, index: int) -> None:
        self.pages.insert(index, page)

    def add_item(self, title: str, page_index: int, parent: Item | None = None) -> Item:
        """An outline entry (open) going to the page `page_index` of the joined file."""
        item = Item(text_string(title), page_index)
        (parent.children if parent is not None else self.outline).append(item)
        return item

    def write(self, title: str, lang: str, duplex: str, made_from: bytes) -> bytes:
        """The joined file: print hints (write/pdf.py viewer_preferences), its title, the outline
        shown on opening, its language, and a file identifier (ISO 32000-1 §14.4) computed from
        what it was `made_from`, so the same parts give the same bytes."""
        from .pdf import viewer_preferences

        shared = _shared(self.pages)
        numbers = _Numbering(shared.redirect)
        catalog, tree, info = 1, 2, 3
        outline_root = numbers.next() if self.outline else None
        page_numbers = [numbers.page(page) for page in self.pages]
        for page in self.pages:
            numbers.walk(page)
        items = _number_items(self.outline, numbers)

        objects: dict[int, bytes] = {}
        for (source, number), new in numbers.objects.items():
            head = renumber(source.head(number), numbers.resolver(source))
            objects[new] = shared.retag(source, number, head) + source.tail(number)
        for page, new in zip(self.pages, page_numbers):
            objects.setdefault(new, renumber(page.source.head(page.number), numbers.resolver(page.source)) + b"\nendobj\n")
        if outline_root is not None:
            objects[outline_root] = _dictionary(
                b"/Type /Outlines", b"/First %d 0 R /Last %d 0 R" % (items[id(self.outline[0])], items[id(self.outline[-1])]),
                b"/Count %d" % sum(1 + item.visible() for item in self.outline))
            _write_items(objects, self.outline, outline_root, items, numbers, page_numbers)
        preferences = b" ".join(f"/{key} {value if value in ('true', 'false') else '/' + value}".encode()
                                for key, value in viewer_preferences(duplex).items())
        objects[catalog] = _dictionary(
            b"/Type /Catalog /Pages 2 0 R", b"/Outlines %d 0 R /PageMode /UseOutlines" % outline_root if outline_root else b"",
            b"/ViewerPreferences << " + preferences + b" >>", b"/Lang " + text_string(lang))
        objects[tree] = _dictionary(b"/Type /Pages /Count %d" % len(self.pages),
                                    b"/Kids [ " + b" ".join(b"%d 0 R" % n for n in page_numbers) + b" ]")
        objects[info] = _dictionary(b"/Title " + text_string(title), b"/Producer (ppgen) /Creator (ppgen)")
        identifier = hashlib.md5(made_from + title.encode("utf-8") + lang.encode()).hexdigest().encode()
        version = max(page.source.version for page in self.pages) if self.pages else b"1.4"
        return _file(objects, version, b"/Root 1 0 R /Info 3 0 R /ID [ <%s> <%s> ]" % (identifier, identifier))


def _dictionary(*entries: bytes) -> bytes:
    return b"<< " + b" ".join(e for e in entries if e) + b" >>\nendobj\n"


def _file(objects: dict[int, bytes], version: bytes, trailer: bytes) -> bytes:
    """The file: header, objects 1…n in order, cross-reference table, trailer."""
    size = max(objects) + 1
    if sorted(objects) != list(range(1, size)):
        raise JoinError("object numbers with gaps")
    chunks = [b"%PDF-" + version + b"\n%\x93\x8c\x8b\x9e ppgen\n"]
    offsets, at = [], len(chunks[0])
    for number in range(1, size):
        chunk = b"%d 0 obj\n" % number + objects[number]
        offsets.append(at)
        chunks.append(chunk)
        at += len(chunk)
    chunks.append(b"xref\n0 %d\n0000000000 65535 f \n" % size)
    chunks.append(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    chunks.append(b"trailer\n<< /Size %d %s >>\nstartxref\n%d\n%%%%EOF\n" % (size, trailer, at))
    return b"".join(chunks)


class _Numbering:
    """New object numbers: 1–3 for the catalog, page tree and information, then the pages in
    order, then every object they use, in the order they are first reached."""

    def __init__(self, redirect: dict):
        self.objects: dict[tuple[Source, int], int] = {}  # (source, old number) → new number
        self.redirect = redirect  # (source, number) of a duplicate font subset or picture → the one kept
        self._last = 3

    def next(self) -> int:
        self._last += 1
        return self._last

    def page(self, page: Page) -> int:
        """The page's number: a page placed twice (a blank back) is two page objects."""
        key = (page.source, page.number)
        if key in self.objects:
            return self.next()
        number = self.objects[key] = self.next()
        return number

    def walk(self, page: Page) -> None:
        """Number every object the page uses not numbered yet, depth first (the page tree left out)."""
        source = page.source
        stack = [(source, n) for n in reversed(source.refs(page.number))]
        while stack:
            key = stack.pop()
            key = self.redirect.get(key, key)
            source, number = key
            if key in self.objects or number in source.page_tree:
                continue
            self.objects[key] = self.next()
            stack += [(source, n) for n in reversed(source.refs(number))]

    def resolver(self, source: Source):
        def new_number(number: int) -> int:
            if number in source.page_tree:
                return 2
            key = self.redirect.get((source, number), (source, number))
            try:
                return self.objects[key]
            except KeyError:
                raise JoinError(f"object {number} is referred to but was never reached") from None

        return new_number


def _number_items(items: list[Item], numbers: _Numbering) -> dict[int, int]:
    """id(item) → its object number, depth first."""
    found = {}
    for item in items:
        found[id(item)] = numbers.next()
        found.update(_number_items(item.children, numbers))
    return found


def _write_items(objects: dict, items: list[Item], parent: int, numbers: dict, numbering: _Numbering, pages: list[int]) -> None:
    for k, item in enumerate(items):
        if isinstance(item.target, int):
            target = b"/Dest [ %d 0 R /Fit ]" % pages[item.target]
        else:
            source, value = item.target
            key = b"/A " if value.startswith(b"<<") else b"/Dest "
            target = key + renumber(value, numbering.resolver(source))
        links = [b"/Parent %d 0 R" % parent]
        if k > 0:
            links.append(b"/Prev %d 0 R" % numbers[id(items[k - 1])])
        if k + 1 < len(items):
            links.append(b"/Next %d 0 R" % numbers[id(items[k + 1])])
        if item.children:
            count = item.visible() if item.open else -sum(1 + child.visible() for child in item.children)
            links.append(b"/First %d 0 R /Last %d 0 R /Count %d" % (numbers[id(item.children[0])], numbers[id(item.children[-1])], count))
        objects[numbers[id(item)]] = _dictionary(b"/Title " + item.title, target, *links)
        _write_items(objects, item.children, numbers[id(item)], numbers, numbering, pages)


# ── font subsets ─────────────────────────────────────────────────────────────
@dataclass
class _Subsets:
    redirect: dict  # (source, number) of a font dropped as a duplicate → (source, number) of the one kept
    tags: dict  # (source, number) of a font dictionary or its descriptor → its new tag

    def retag(self, source: Source, number: int, head: bytes) -> bytes:
        tag = self.tags.get((source, number))
        if tag is None:
            return head
        return re.sub(rb"(/BaseFont|/FontName) /[A-Z]{6}\+", lambda m: m[1] + b" /" + tag + b"+", head)


def _shared(pages: list[Page]) -> _Subsets:
    """Which font subsets and pictures are duplicates of another part's (the first kept), and each
    kept subset's new tag."""
    kept: dict[tuple, tuple] = {}
    redirect, tags, used = {}, {}, set()
    pictures: dict[tuple, bytes] = {}  # (source, number) of a picture → what it is (its dictionary and data, its mask's)
    for key in _reachable(pages, set()):
        source, number = key
        head = source.head(number)
        if b"/Subtype /Image" in head:
            identity = ("picture", _picture(source, number, pictures))
        elif b"/BaseFont" in head and b"/Type /Font" in head:
            identity = _subset(source, head)
            if identity is None:
                continue
        else:
            continue
        if identity in kept:
            redirect[key] = kept[identity]
            continue
        kept[identity] = key
        if identity[0] == "picture":
            continue
        name, program = identity[0], identity[1]
        n, tag = 0, _tag(name + program, 0)
        while tag in used:
            n += 1
            tag = _tag(name + program, n)
        used.add(tag)
        tags[key] = tags[(source, int(_DESCRIPTOR.search(head)[1]))] = tag
    return _Subsets(redirect, tags)


def _subset(source: Source, head: bytes) -> tuple | None:
    """What makes an embedded font subset the same as another: its name, program, ToUnicode map
    and widths; None for a font that is not an embedded subset."""
    subset, descriptor = _SUBSET_NAME.search(head), _DESCRIPTOR.search(head)
    if subset is None or descriptor is None:
        return None
    program = _stream_at(source, _FONT_FILE.search(source.head(int(descriptor[1]))))
    widths, first = _WIDTHS.search(head), _FIRST_CHAR.search(head)
    return (subset[1], program, _stream_at(source, _TO_UNICODE.search(head)),
            tuple(widths[1].split()) if widths else None, first[1] if first else None)


def _picture(source: Source, number: int, known: dict) -> bytes:
    """A digest of a picture: its dictionary (each reference replaced by what it points to) and data."""
    key = (source, number)
    if key not in known:
        h = hashlib.sha256()
        head = source.head(number)
        pos = 0
        for match in _references(head):
            h.update(head[pos:match.start()] + b"\0" + _picture(source, int(match[1]), known) + b"\0")
            pos = match.end()
        h.update(head[pos:] + b"\0" + source.tail(number))
        known[key] = h.digest()
    return known[key]


def _stream_at(source: Source, reference) -> bytes:
    """The stream a reference found in a dictionary (a regular expression's match) points to; b"" for none."""
    return source.tail(int(reference[1])) if reference is not None else b""  # as written, still encoded: enough to tell two apart


def _reachable(pages: list[Page], seen: set):
    """Every object the pages use, once, in the order first reached (the pages' tree left out)."""
    for page in pages:
        source = page.source
        stack = [(source, n) for n in reversed(source.refs(page.number))]
        while stack:
            key = stack.pop()
            if key in seen or key[1] in source.page_tree:
                continue
            seen.add(key)
            yield key
            stack += [(source, n) for n in reversed(source.refs(key[1]))]


def _tag(seed: bytes, n: int) -> bytes:
    """Six capital letters from a hash of `seed` and `n`."""
    value = int.from_bytes(hashlib.sha256(seed + n.to_bytes(4, "big")).digest()[:8], "big")
    letters = []
    for _ in range(6):
        value, digit = divmod(value, 26)
        letters.append(65 + digit)
    return bytes(letters)
