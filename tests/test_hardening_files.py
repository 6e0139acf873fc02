"""Hostile and unusual files: every one gives a clear file:line:col error or loads correctly."""
from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ppgen
from fuzzing import fuzz
from ppgen.errors import DataError
from ppgen.read.yamlio import parse_yaml


def load_error(game_copy) -> DataError:
    with pytest.raises(DataError) as exc:
        project = ppgen.load(game_copy)
        for lang in project.languages:
            project.locale(lang)
    return exc.value


def test_empty_cards_file(game_copy):
    (game_copy / "cards.yaml").write_text("", encoding="utf-8")
    err = load_error(game_copy)
    assert "must be a mapping" in str(err) and "cards.yaml" in str(err)


def test_binary_file(game_copy):
    (game_copy / "cards.yaml").write_bytes(bytes(range(256)) * 10)
    assert "binary file" in str(load_error(game_copy))


def test_invalid_utf8_is_located(game_copy):
    path = game_copy / "locales" / "ja.yaml"
    raw = path.read_bytes()
    line3 = raw.index(b"\n", raw.index(b"\n") + 1) + 1  # start of line 3
    path.write_bytes(raw[:line3] + b"# caf\xe9\n" + raw[line3:])
    (problem,) = load_error(game_copy).problems
    assert (problem.line, problem.col, problem.code) == (3, 6, "encoding")
    assert "0xe9" in problem.message


def test_bom_and_crlf_load_identically(game_copy, project):
    path = game_copy / "cards.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    loc = game_copy / "locales" / "ko.yaml"
    loc.write_bytes(b"\xef\xbb\xbf" + loc.read_bytes().replace(b"\n", b"\r\n"))
    copy = ppgen.load(game_copy)
    assert copy.game.cards == project.game.cards
    assert copy.locale("ko").entries == project.locale("ko").entries  # same texts, same line:col


def test_tab_indentation_is_explained(game_copy):
    path = game_copy / "cards.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("        atk: 2\n", "\tatk: 2\n", 1), encoding="utf-8")
    (problem,) = load_error(game_copy).problems
    assert problem.code == "yaml" and problem.line > 1 and "tab" in problem.message


def test_ten_megabyte_file_is_refused(game_copy):
    path = game_copy / "locales" / "en.yaml"
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(("# padding " + "x" * 90 + "\n") * 100_000)
    err = load_error(game_copy)
    assert "larger than" in str(err)


def test_deep_nesting_is_refused(game_copy):
    (game_copy / "cards.yaml").write_text("rules: " + "[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert "nesting" in str(load_error(game_copy))


@pytest.mark.parametrize("loader", ["CSafeLoader", "SafeLoader"])
def test_deep_nesting_is_refused_on_a_small_stack(loader):
    """PyYAML's composer recurses once per level (in C with libyaml): on a small
    stack, a few hundred levels crashed the process before any limit applied."""
    import resource

    code = (
        "import yaml, ppgen.read.yamlio as y\n"
        "from ppgen.errors import DataError\n"
        f"y._Loader = getattr(yaml, {loader!r}, yaml.SafeLoader)\n"
        "try:\n"
        "    y.parse_yaml('x: ' + '[' * 900 + ']' * 900, 'deep.yaml')\n"
        "except DataError as exc:\n"
        "    print(exc)\n"
    )
    small = 192 * 1024
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_STACK, (small, small)))
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == "deep.yaml:1:67: error[yaml] nesting deeper than 64 levels"


BOMB = "\n".join(
    ["a: &a ['lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol']"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]" for i in range(8)]
)


def test_billion_laughs_is_refused_with_bounded_memory(tmp_path):
    code = (
        "import tracemalloc\n"
        "from ppgen.read.yamlio import parse_yaml\n"
        "from ppgen.errors import DataError\n"
        f"bomb = {BOMB!r}\n"

        "tracemalloc.start()\n"
        "try:\n    parse_yaml(bomb, 'bomb.yaml')\nexcept DataError as e:\n    print('REFUSED', e)\n"

        "print('PEAK_MB', tracemalloc.get_traced_memory()[1] / 2**20)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert "REFUSED" in out and "aliases" in out
    peak = float(out.split("PEAK_MB ")[1].split()[0])
    assert peak < 20, out  # expanded, the bomb would need gigabytes (the timeout above guards against a hang)


def test_wrong_types_everywhere_in_a_card(game_copy):
    path = game_copy / "cards.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("        level: 2\n        atk: 2\n", "        level: two\n        atk: [2]\n", 1)
    text = text.replace("        copies: 2\n", "        copies: {n: 2}\n", 1)
    text = text.replace("    unlock_games: 9\n", "    unlock_games: nine\n", 1)
    path.write_text(text, encoding="utf-8")
    problems = load_error(game_copy).problems
    assert {p.code for p in problems} == {"type"}
    assert len(problems) == 4
    assert all(p.line > 0 and p.col > 0 for p in problems)


def test_locale_entry_of_wrong_shape(game_copy):
    path = game_copy / "locales" / "zh.yaml"
    text = path.read_text(encoding="utf-8").replace("faction.rome:\n  text: 罗马\n  src: d0d22019\n", "faction.rome: [罗马]\n", 1)
    text = text.replace("faction.egypt:\n  text: 埃及\n", "faction.egypt:\n  txt: 埃及\n", 1)
    path.write_text(text, encoding="utf-8")
    messages = [str(p) for p in load_error(game_copy).problems]
    assert any("must be a mapping" in m for m in messages)
    assert any("unknown key 'txt'" in m and "did you mean 'text'" in m for m in messages)


# ── fuzzing: any input gives a result or a clear error ──────────────────────
yaml_chars = st.sampled_from(list(":-[]{}#&*!|>'\"%@`,?\n\t ") + list("abcxyz019") + ["é", "日", "\u202e", "\x00"])


@fuzz(300)
@given(st.text(yaml_chars, max_size=200))
def test_fuzz_yaml_loader(text):
    try:
        parse_yaml(text, "fuzz.yaml")
        parse_yaml(text, "fuzz.yaml", plain_strings=True)
    except DataError as exc:
        assert exc.problems and all(p.file == "fuzz.yaml" for p in exc.problems)


def _node_marks(node, path=()):
    """(path → (line, col)) of every value in a node tree PyYAML composed itself."""
    yield path, (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node.value, list):
        for i, item in enumerate(node.value):
            if isinstance(item, tuple):
                yield from _node_marks(item[1], path + (item[0].value,))
            else:
                yield from _node_marks(item, path + (i,))


_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(yaml_chars, max_size=12),
                     st.floats(allow_nan=False, allow_infinity=False, width=32))
_documents = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(st.text("abcxyz-_日本 ", min_size=1, max_size=6), inner, max_size=4), max_leaves=20)


@fuzz(200)
@given(_documents, st.sampled_from([False, True, None]))
def test_fuzz_yaml_composer_matches_pyyaml(data, flow):
    """ppgen composes YAML nodes itself (without recursion): for any document PyYAML reads,
    the data and the line:col of every value are PyYAML's."""
    import yaml

    text = yaml.safe_dump({"root": data}, default_flow_style=flow, allow_unicode=True)
    doc = parse_yaml(text, "fuzz.yaml")
    assert doc.data == yaml.safe_load(text)
    assert doc.value_marks == dict(_node_marks(yaml.compose(text, Loader=yaml.SafeLoader)))


@fuzz(60)
@given(data=st.data())
def test_fuzz_card_database_values(game_copy, data):
    """Replace one value in cards.yaml by something of another type: DataError or a valid load."""
    path = game_copy / "cards.yaml"
    original = getattr(test_fuzz_card_database_values, "_orig", None) or path.read_text(encoding="utf-8")
    test_fuzz_card_database_values._orig = original
    lines = original.split("\n")
    candidates = [i for i, line in enumerate(lines) if ": " in line and not line.lstrip().startswith("#")]
    i = data.draw(st.sampled_from(candidates))
    value = data.draw(st.sampled_from(["", "~", "[]", "{}", "-1", "99", "yes", "1.5", "'x'", "[1, 2]", "{a: 1}", "\"#12\""]))
    key = lines[i].split(": ")[0]
    lines[i] = f"{key}: {value}"
    path.write_text("\n".join(lines), encoding="utf-8")
    try:
        ppgen.load(game_copy)
    except DataError as exc:
        assert exc.problems


# ── explicit YAML tags (issue 13, item 1): both loaders, libyaml and pure Python ──
LOADERS = pytest.mark.parametrize("pure", [False, True], ids=["libyaml", "pure-python"])


@pytest.fixture
def loader(monkeypatch, request):
    """PPGEN_PURE_YAML=1 forces PyYAML's pure-Python loader (what a machine without libyaml uses)."""
    def use(pure: bool):
        if pure:
            monkeypatch.setenv("PPGEN_PURE_YAML", "1")
        else:
            monkeypatch.delenv("PPGEN_PURE_YAML", raising=False)
    return use


@LOADERS
@pytest.mark.parametrize("text, where, says", [
    ("games: !!int seven\n", (1, 8), "‘seven’ is not a valid !!int value"),
    ("atk: !!int abc\n", (1, 6), "‘abc’ is not a valid !!int value"),
    ("x: !!float x\n", (1, 4), "‘x’ is not a valid !!float value"),
    ("x: !!bool maybe\n", (1, 4), "‘maybe’ is not a valid !!bool value"),
    ("x: !!timestamp 2001-13-45\n", (1, 4), "‘2001-13-45’ is not a valid !!timestamp value"),
    ("x: !!null abc\n", (1, 4), "‘abc’ is not a valid !!null value"),
    ("atk: !foo 3\n", (1, 6), "YAML tag ‘!foo’ is not allowed"),
    ("x: !!binary aGk=\n", (1, 4), "YAML tag ‘!!binary’ is not allowed"),
    ("x: !!str [1, 2]\n", (1, 4), "YAML tag ‘!!str’ is not allowed on a list"),
    ("x: [ !!str, xxx ]\n", (1, 6), "YAML tag ‘!!str,’ is not allowed"),
])
def test_an_explicit_tag_that_does_not_fit_is_a_located_error(loader, pure, text, where, says):
    loader(pure)
    with pytest.raises(DataError) as exc:
        parse_yaml(text, "x.yaml")
    (problem,) = exc.value.problems
    assert (problem.line, problem.col, problem.code) == (*where, "yaml"), problem
    assert says in problem.message, problem.message


@LOADERS
def test_explicit_tags_that_fit_read_as_their_type(loader, pure):
    loader(pure)
    doc = parse_yaml("a: !!int 7\nb: !!str 7\nc: !!float 2\nd: !!bool yes\ne: !!null ''\nf: !!seq [1]\n"
                     "g: !!map {k: v}\ni: !<tag:yaml.org,2002:int> 8\n", "x.yaml")
    assert doc.data == {"a": 7, "b": "7", "c": 2.0, "d": True, "e": None, "f": [1], "g": {"k": "v"}, "i": 8}


def test_pure_yaml_setting_uses_the_pure_python_loader(loader, monkeypatch):
    import yaml

    class NoLibyaml:
        def __init__(self, *a):
            raise AssertionError("libyaml used")

    monkeypatch.setattr("ppgen.read.yamlparse._Loader", NoLibyaml)
    loader(True)
    assert parse_yaml("a: 1\n", "x.yaml").data == {"a": 1}
    loader(False)
    with pytest.raises(AssertionError, match="libyaml used"):
        parse_yaml("a: 1\n", "x.yaml")
    assert yaml.SafeLoader  # the pure loader ships with PyYAML


@LOADERS
def test_a_bad_tag_in_a_decklist_or_the_card_database_exits_2_located(game_copy, tmp_path, pure):
    from clitools import assert_clean_error, located, run_ppgen

    env = dict(__import__("os").environ, PPGEN_PURE_YAML="1" if pure else "")
    deck = tmp_path / "deck.yaml"
    deck.write_text("name: x\nprimary: Rome\ngames: !!int seven\ncards:\n  ROM-01: 1\n", encoding="utf-8")
    result = run_ppgen("validate", deck, root=game_copy, env=env)
    assert_clean_error(result, "‘seven’ is not a valid !!int value", where=r"deck\.yaml:3:8")
    cards = game_copy / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("        atk: 2\n", "        atk: !!int abc\n", 1), encoding="utf-8")
    assert_clean_error(run_ppgen("cards", root=game_copy, env=env), "‘abc’ is not a valid !!int value", where=located("cards.yaml"))
