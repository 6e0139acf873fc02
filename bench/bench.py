#!/usr/bin/env python3
"""ppgen benchmark — run by hand, never by the test suite.

    python bench/bench.py                 # everything (a few minutes)
    python bench/bench.py --quick         # skip the 50x scale build
    python bench/bench.py --scale 10 20   # choose the scale factors

Prints, in one run on this machine:
  1. `ppgen build` wall and CPU time per language (drawn afresh; and with --jobs 1, in one
     process) and for --lang all, peak RSS, PDF
     sizes, against two baselines measured in the same run: (1) plain ReportLab drawing the
     same strings (every card name and effect, every rulebook paragraph, the mat and sheet
     words) with the same fonts on the same number of pages at fixed positions — the cost of
     emitting the glyphs at all; (2) the same, plus every path, colour and transformation of
     ppgen's own set PDF replayed through ReportLab's canvas (each face a form drawn once and
     placed for every copy) — the floor of drawing the cards' vector art;
  2. re-runs: a build with nothing changed (files kept), after one card's text changed (its
     texts laid out again, the rest taken from the last build), and a first build on a machine
     (nothing in the cache folder: the fonts parsed);
  3. `ppgen validate` on a 40-card list (with and without the kept name index) and
     `ppgen --help`, against `python -c pass`;
  4. the speed issue's targets, each against this run's figures: met or NOT met;
  5. scale: builds of synthetic game directories with N× the cards, time and
     memory per card.
Each timing is the median of --repeat runs (default 3), each in a fresh process.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
sys.path.insert(0, str(ROOT / "tests"))
from servetools import copy_game  # noqa: E402  (the tests' copy of the game: fonts linked, not copied)
MEASURE = r"""
import resource, subprocess, sys, time
t = time.perf_counter()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
wall = time.perf_counter() - t
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, use.ru_maxrss, use.ru_utime + use.ru_stime, rc)
"""
CPU: dict[str, float] = {}  # the CPU seconds (user + system, every process) of the last measure() of each command


def measure(cmd: list[str], repeat: int, env=None) -> tuple[float, float]:
    """(median wall seconds, max peak RSS in MB) of `cmd`, each run in a fresh process; its
    median CPU seconds (all its processes) in CPU[" ".join(cmd)]: less sensitive than wall
    time to other work on the machine, and the sum over worker processes."""
    walls, rss, cpus = [], [], []
    for _ in range(repeat):
        out = subprocess.run([PY, "-c", MEASURE, *cmd], capture_output=True, text=True, env=env, check=True).stdout.split()
        wall, peak, cpu, rc = float(out[0]), int(out[1]), float(out[2]), int(out[3])
        if rc != 0:
            raise SystemExit(f"command failed ({rc}): {' '.join(cmd)}")
        walls.append(wall)
        rss.append(peak / 1024)
        cpus.append(cpu)
    CPU[" ".join(cmd)] = statistics.median(cpus)
    return statistics.median(walls), max(rss)


def measure_together(cmds: list[list[str]], repeat: int) -> list[tuple[float, float]]:
    """`measure` of each command, their runs taken in turn (A B C, A B C, …) so that a change in
    the machine's speed during the measurement (other work, the host) reaches each alike: the
    ratios between them are what the benchmark reports."""
    runs: list[list[tuple[float, float]]] = [[] for _ in cmds]
    cpus: list[list[float]] = [[] for _ in cmds]
    for _ in range(repeat):
        for k, cmd in enumerate(cmds):
            wall, rss = measure(cmd, 1)
            runs[k].append((wall, rss))
            cpus[k].append(CPU[" ".join(cmd)])
    for cmd, cpu in zip(cmds, cpus):
        CPU[" ".join(cmd)] = statistics.median(cpu)
    return [(statistics.median(w for w, _ in r), max(m for _, m in r)) for r in runs]


def cpu_of(cmd: list[str]) -> float:
    return CPU[" ".join(cmd)]


def cli(*args) -> list[str]:
    return [PY, "-m", "ppgen", *args]


# ── the baseline: the same strings, plain ReportLab ──────────────────────────
BASELINE = r"""
import sys, time
t0 = time.perf_counter()
import io, json
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
spec = json.load(open(sys.argv[1], encoding="utf-8"))
for name, path in spec["fonts"].items():
    pdfmetrics.registerFont(TTFont(name, path))
body, bold = spec["body"], spec["bold"]
strings, pages = spec["strings"], spec["pages"]
c = Canvas(io.BytesIO(), initialFontName=body, invariant=1, pageCompression=1)
per_page = max(1, -(-len(strings) // pages))
i = 0
for page in range(pages):
    y = 800
    for s in strings[i:i + per_page]:
        c.setFont(bold if len(s) < 40 else body, 9)
        c.drawString(40, y, s[:200])
        y -= 11
    i += per_page
    c.showPage()
c.save()
print(time.perf_counter() - t0)
"""


def baseline_spec(project, lang: str, pages: int, path: Path) -> None:
    """Every string the build prints (card names and effects, rulebook, mats, sheet) and the fonts."""
    from ppgen.errors import DataError

    values = project.game.rules.placeholders(project.game.factions)
    loc = project.locale(lang)
    strings = []
    for card in project.game.cards:
        strings += [project.card_name(card, lang), project.card_effect(card, lang)]
    for key in loc.keys():
        if key.split(".")[0] in ("rules", "mat", "sheet", "label", "type", "faction"):
            try:
                strings.append(loc.format(key, **values).replace("**", ""))
            except DataError:  # a placeholder filled at drawing time ({n}, {page}…): the text as written
                strings.append(loc.get(key))
    body, bold = project.fonts.chain(lang, "body"), project.fonts.chain(lang, "bold")
    fonts = {f.name: str(f.path) for f in body.fonts + bold.fonts}
    path.write_text(json.dumps({"fonts": fonts, "body": body.primary, "bold": bold.primary,
                                "strings": strings, "pages": pages}, ensure_ascii=False), encoding="utf-8")


def baseline(project, lang: str, pages: int, tmp: Path) -> list[str]:
    """The baseline's command: a whole process, measured like ppgen (start-up, imports, fonts, drawing)."""
    spec = tmp / f"baseline-{lang}.json"
    baseline_spec(project, lang, pages, spec)
    return [PY, "-c", BASELINE, str(spec)]


# ── the second baseline: the same strings and the same vector drawing, plain ReportLab ──
# Every path, colour and transformation of ppgen's own set PDF (frames, emblems, badges,
# illustrations, crop marks, the mats' zones, the rulebook's pictures), read back with pypdf
# and replayed through ReportLab's canvas API — each distinct face as a form drawn once and
# placed for every copy, as ppgen does — with the strings drawn as the first baseline draws
# them. What ppgen adds beyond this is its own work: layout, line breaking, fitting, checks.
REPLAY = r"""
import sys, time
t0 = time.perf_counter()
import io, json
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
spec = json.load(open(sys.argv[1], encoding="utf-8"))
vec = json.load(open(sys.argv[2], encoding="utf-8"))
for name, path in spec["fonts"].items():
    pdfmetrics.registerFont(TTFont(name, path))
body, bold = spec["body"], spec["bold"]
strings = spec["strings"]
c = Canvas(io.BytesIO(), initialFontName=body, invariant=1, pageCompression=1)


def replay(ops):
    path = None
    for op, args in ops:
        if op == "q": c.saveState()
        elif op == "Q": c.restoreState()
        elif op == "cm": c.transform(*args)
        elif op == "w": c.setLineWidth(args[0])
        elif op == "J": c.setLineCap(int(args[0]))
        elif op == "j": c.setLineJoin(int(args[0]))
        elif op == "M": c.setMiterLimit(args[0])
        elif op == "d": c.setDash(args[0], args[1])
        elif op == "rg": c.setFillColorRGB(*args)
        elif op == "RG": c.setStrokeColorRGB(*args)
        elif op == "g": c.setFillGray(args[0])
        elif op == "G": c.setStrokeGray(args[0])
        elif op == "k": c.setFillColorCMYK(*args)
        elif op == "K": c.setStrokeColorCMYK(*args)
        elif op == "Do": c.doForm(args[0])
        elif op in ("m", "l", "c", "v", "y", "re", "h"):
            path = path or c.beginPath()
            if op == "m": path.moveTo(*args)
            elif op == "l": path.lineTo(*args)
            elif op == "c": path.curveTo(*args)
            elif op == "v": path.curveTo(*path_point(path), *args)
            elif op == "y": path.curveTo(*args, *args[2:])
            elif op == "re": path.rect(*args)
            else: path.close()
        elif op in ("W", "W*"):
            c.clipPath(path, stroke=0, fill=0, fillMode=1 if op == "W*" else 0)
            path = None
        elif path is not None:  # f f* S s B B* b b* n: paint (n: clipped above, or nothing)
            if op != "n":
                c.drawPath(path, stroke=op[0] in "SsBb", fill=op[0] in "fBb", fillMode=1 if op.endswith("*") else 0)
            path = None


def path_point(path):
    return (0, 0)  # 'v' starts at the current point; ppgen writes none, kept for completeness


for name, box, ops in vec["forms"]:  # defined before the pages that place them, as ppgen's are
    c.beginForm(name, *box)
    replay(ops)
    c.endForm()
per_page = max(1, -(-len(strings) // len(vec["pages"])))
for n, ops in enumerate(vec["pages"]):
    replay(ops)
    y = 800
    for s in strings[n * per_page:(n + 1) * per_page]:
        c.setFont(bold if len(s) < 40 else body, 9)
        c.drawString(40, y, s[:200])
        y -= 11
    c.showPage()
c.save()
print(time.perf_counter() - t0)
"""
VECTOR_OPS = {"q", "Q", "cm", "w", "J", "j", "M", "d", "rg", "RG", "g", "G", "k", "K", "m", "l", "c", "v", "y", "re", "h",
              "f", "f*", "S", "s", "B", "B*", "b", "b*", "n", "W", "W*", "Do"}


def vector_spec(pdf: Path, path: Path) -> dict:
    """Every page's and form's vector drawing in `pdf` (text and pictures left out), forms in an
    order that defines each before the forms that place it: what REPLAY draws."""
    from pypdf import PdfReader
    from pypdf.generic import ContentStream

    reader = PdfReader(str(pdf))
    forms, seen = [], {}

    def ops_of(stream, resources) -> list:
        xobjects = resources.get("/XObject", {}) if resources else {}
        out, in_text = [], False
        for operands, op in ContentStream(stream, reader).operations:
            op = op.decode()
            if op in ("BT", "ET"):
                in_text = op == "BT"
                continue
            if in_text or op not in VECTOR_OPS:
                continue
            if op == "Do":
                target = xobjects[operands[0]].get_object()
                if target.get("/Subtype") != "/Form":
                    continue  # a picture: not vector drawing
                out.append(["Do", [define(target)]])
            elif op == "d":
                out.append([op, [[float(x) for x in operands[0]], float(operands[1])]])
            else:
                out.append([op, [float(x) for x in operands]])
        return out

    def define(form) -> str:
        key = id(form) if form.indirect_reference is None else (form.indirect_reference.idnum, form.indirect_reference.generation)
        if key not in seen:
            seen[key] = f"f{len(seen)}"
            ops = ops_of(form, form.get("/Resources"))
            forms.append([seen[key], [float(x) for x in form["/BBox"]], ops])
        return seen[key]

    pages = [ops_of(page.get_contents(), page.get("/Resources")) for page in reader.pages]
    spec = {"forms": forms, "pages": pages}
    path.write_text(json.dumps(spec), encoding="utf-8")
    return spec


def baseline_with_drawing(project, lang: str, pdf: Path, tmp: Path) -> list[str]:
    """The second baseline's command (REPLAY): the strings, and ppgen's vector drawing replayed."""
    from pypdf import PdfReader

    strings, vectors = tmp / f"baseline-{lang}.json", tmp / f"vectors-{lang}.json"
    baseline_spec(project, lang, len(PdfReader(str(pdf)).pages), strings)
    vector_spec(pdf, vectors)
    return [PY, "-c", REPLAY, str(strings), str(vectors)]


# ── a synthetic game directory with N× the cards ─────────────────────────────
def synthetic_game(factor: int, dest: Path) -> int:
    """Copy the game (English only) with every faction repeated `factor` times, the copies
    renamed; return the card count."""
    import yaml

    cards = yaml.safe_load((ROOT / "cards.yaml").read_text(encoding="utf-8"))
    en = yaml.safe_load((ROOT / "locales" / "en.yaml").read_text(encoding="utf-8"))
    factions, words = [], {k: v for k, v in en.items() if not k.startswith("card.")}
    for n in range(factor):
        for f in cards["factions"]:
            if n == 0:  # the first copy is the real faction: the rulebook names it
                factions.append(f)
                words.update({f"card.{c['id']}.{part}": en[f"card.{c['id']}.{part}"] for c in f["cards"] for part in ("name", "effect")})
                continue
            g = dict(f, id=f"{f['id']}{n}", code=f"{f['code'][:3]}{chr(65 + n % 26)}{chr(65 + n // 26 % 26)}"[:5],
                     cards=[])
            words[f"faction.{g['id']}"] = f"{en['faction.' + f['id']]} {n}"
            for c in f["cards"]:
                cid = f"{c['id']}-{n}"
                g["cards"].append(dict(c, id=cid, code=f"{g['code']}-{c['code'].split('-')[1]}"))
                words[f"card.{cid}.name"] = f"{en['card.' + c['id'] + '.name']} {n}"
                words[f"card.{cid}.effect"] = en[f"card.{c['id']}.effect"]
            factions.append(g)
    cards["factions"] = factions
    dest.mkdir(parents=True)

    class NoAliases(yaml.SafeDumper):  # ppgen refuses YAML aliases; write shared values out in full
        def ignore_aliases(self, data):
            return True

    (dest / "cards.yaml").write_text(yaml.dump(cards, Dumper=NoAliases, allow_unicode=True, sort_keys=False), encoding="utf-8")
    (dest / "locales").mkdir()
    (dest / "locales" / "en.yaml").write_text(yaml.safe_dump(words, allow_unicode=True, sort_keys=False), encoding="utf-8")
    config = yaml.safe_load((ROOT / "ppgen.yaml").read_text(encoding="utf-8"))
    config["languages"] = {"en": config["languages"]["en"]}
    (dest / "ppgen.yaml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    for folder in ("fonts", "templates"):
        (dest / folder).symlink_to(ROOT / folder)
    return sum(len(f["cards"]) for f in factions)


def edit_one_card(game: Path, lang: str, n: int) -> None:
    """Change one card's effect text in `lang`'s locale file (a translator's save)."""
    import re

    path = game / "locales" / f"{lang}.yaml"
    text = path.read_text(encoding="utf-8")
    key = re.search(r"^card\.[\w-]+\.effect:\n  text: ", text, re.M)
    path.write_text(text[:key.end()] + "★" * (n + 1) + text[key.end():], encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scale", type=int, nargs="*", default=[1, 10, 50])
    parser.add_argument("--quick", action="store_true", help="scale factors 1 and 10 only")
    args = parser.parse_args()
    scales = [s for s in args.scale if s <= 10] if args.quick else args.scale
    sys.path.insert(0, str(ROOT / "src"))
    os.environ["PYTHONPATH"] = str(ROOT / "src")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # measured as installed: modules load from compiled bytecode
    import ppgen

    project = ppgen.load(ROOT)
    langs = project.languages
    tmp = Path(tempfile.mkdtemp(prefix="ppgen-bench-"))
    os.environ["PPGEN_CACHE_DIR"] = str(tmp / "cache")  # what ppgen keeps between runs: this run's, not the user's
    print(f"ppgen {ppgen.__version__} benchmark — {os.cpu_count()} cores, Python {sys.version.split()[0]}, median of {args.repeat}\n")

    print("1. ppgen build (every part: rulebook, mats, score sheet, 280 cards), drawn afresh (--no-cache)")
    print("   baseline 1: plain ReportLab, the same strings; baseline 2: also ppgen's vector drawing replayed (forms once per face)")
    print("   (wall seconds; CPU seconds of every process in brackets: other work on the machine inflates wall time more)")
    print(f"   {'lang':<6}{'ppgen s':>14}{'-j 1 s':>9}{'base 1 s':>14}{'ratio':>7}{'base 2 s':>14}{'ratio':>7}{'RSS MB':>8}{'pages':>7}{'PDF MB':>8}")
    single, one, to_base2, floor = {}, {}, {}, {}
    for lang in langs:
        out = tmp / f"out-{lang}"
        cmd = cli("--root", str(ROOT), "build", "--lang", lang, "--out", str(out), "--quiet", "--no-cache")
        measure(cmd, 1)  # the set the second baseline replays (and a first run: bytecode compiled, caches made)
        pdf = out / lang / f"ancient-duel-{lang}.pdf"
        from pypdf import PdfReader

        pages = len(PdfReader(str(pdf)).pages)
        base_cmd, drawn_cmd = baseline(project, lang, pages, tmp), baseline_with_drawing(project, lang, pdf, tmp)
        (wall, rss), (one[lang], _), (base, _), (drawn, _) = measure_together([cmd, cmd + ["--jobs", "1"], base_cmd, drawn_cmd], args.repeat)
        cpu, base_cpu, drawn_cpu = cpu_of(cmd), cpu_of(base_cmd), cpu_of(drawn_cmd)
        single[lang] = wall
        to_base2[lang], floor[lang] = wall / drawn, drawn / base
        print(f"   {lang:<6}{wall:>7.2f} ({cpu:4.2f}){one[lang]:>9.2f}{base:>7.2f} ({base_cpu:4.2f}){wall / base:>7.2f}{drawn:>7.2f} ({drawn_cpu:4.2f})"
              f"{wall / drawn:>7.2f}{rss:>8.0f}{pages:>7}{pdf.stat().st_size / 1e6:>8.2f}")
    out = tmp / "out-all"
    cmd = cli("--root", str(ROOT), "build", "--lang", "all", "--out", str(out), "--quiet", "--no-cache")
    singles = [cli("--root", str(ROOT), "build", "--lang", lang, "--out", str(tmp / f"out-{lang}"), "--quiet", "--no-cache")
               for lang in langs]
    measured = measure_together([cmd] + singles, args.repeat)  # with the single builds again, in turn: the same machine
    (wall_all, rss_all), total = measured[0], sum(wall for wall, _ in measured[1:])
    total_one = sum(one.values())
    print(f"   all   {wall_all:>7.2f} ({cpu_of(cmd):4.2f})  ratio {wall_all / total:.2f} to the sum of the single builds ({total:.2f} s), "
          f"{wall_all / total_one:.2f} to their sum in one process each ({total_one:.2f} s); peak RSS {rss_all:.0f} MB")
    parts = sorted(p for p in (tmp / "out-ja" / "ja").glob("*.pdf"))
    print("   ja files: " + ", ".join(f"{p.name} {p.stat().st_size / 1e6:.2f} MB" for p in parts))

    print("\n2. re-runs (ja, every part)")
    out = tmp / "out-ja"  # built above: its record is there
    kept, _ = measure(cli("--root", str(ROOT), "build", "--lang", "ja", "--out", str(out), "--quiet"), args.repeat)
    game = copy_game(tmp / "game-edit")
    edited = []
    for n in range(args.repeat):
        edit_one_card(game, "ja", n)
        edited.append(measure(cli("--root", str(game), "build", "--lang", "ja", "--out", str(tmp / "out-edit"), "--quiet"), 1)[0])
    first = statistics.median(
        measure(cli("--root", str(ROOT), "build", "--lang", "ja", "--out", str(tmp / f"out-first-{n}"), "--quiet"), 1,
                dict(os.environ, PPGEN_CACHE_DIR=str(tmp / f"first-{n}")))[0] for n in range(args.repeat))
    print(f"   nothing changed               {kept:.2f} s  (files kept; {kept / single['ja']:.2f} × a fresh build)")
    print(f"   one card's effect text edited {statistics.median(edited):.2f} s  (that card's texts laid out again, the rest "
          f"taken from the last build; {statistics.median(edited) / single['ja']:.2f} × a fresh build)")
    print(f"   first build on a machine      {first:.2f} s  (empty cache folder: the fonts parsed; {first / single['ja']:.2f} × "
          "a fresh build with the fonts kept)")

    print("\n3. start-up")
    bare, _ = measure([PY, "-c", "pass"], args.repeat * 3)
    helpw, _ = measure(cli("--help"), args.repeat * 3)
    deck = ROOT / "decks" / "starter-rome.txt"
    env = dict(os.environ, PPGEN_CACHE_DIR=str(tmp / "cache"))
    cold = statistics.median(measure(cli("--root", str(ROOT), "validate", str(deck)), 1, dict(env, PPGEN_CACHE_DIR=str(tmp / f"cold-{n}")))[0]
                             for n in range(args.repeat))
    valid, _ = measure(cli("--root", str(ROOT), "validate", str(deck)), args.repeat * 3, env)  # the first run made the name index
    print(f"   python -c pass                       {bare:.3f} s")
    print(f"   ppgen --help                         {helpw:.3f} s  (+{helpw - bare:.3f} s)")
    print(f"   ppgen validate (40 cards)            {valid:.3f} s  (+{valid - bare:.3f} s; name index kept from an earlier run)")
    print(f"   ppgen validate, no name index yet    {cold:.3f} s  (+{cold - bare:.3f} s; every locale file parsed)")

    targets(to_base2, floor, kept, valid - bare, helpw, wall_all / total, wall_all / total_one, rss_all)

    print("\n5. scale (synthetic game directories, English, every part)")
    print(f"   {'factor':>6}{'cards':>7}{'copies':>8}{'seconds':>9}{'ms/card':>9}{'peak MB':>9}{'KB RSS/card':>12}{'pages':>7}")
    base_rss = None
    for factor in scales:
        game = tmp / f"game-{factor}x"
        n = synthetic_game(factor, game)
        wall, rss = measure(cli("--root", str(game), "build", "--lang", "en", "--quiet", "--jobs", "1", "--no-cache"), 1)
        pdf = game / "out" / "en" / "ancient-duel-en.pdf"
        from pypdf import PdfReader

        pages = len(PdfReader(str(pdf)).pages)
        base_rss = base_rss if base_rss is not None else rss
        print(f"   {factor:>6}{n:>7}{n * 280 // 141:>8}{wall:>9.2f}{wall / n * 1000:>9.2f}{rss:>9.0f}"
              f"{(rss - base_rss) * 1024 / max(n - 141, 1) if factor > 1 else 0:>12.1f}{pages:>7}")

    print("\n6. a print shop's files (ja, the seven starter decks: PDF/X-4, CMYK, one face per page, each preflighted)")
    out = tmp / "out-press"
    press = cli("--root", str(ROOT), "build", "--for", "print-shop", "--lang", "ja", "--out", str(out), "--quiet")
    measure(press, 1)  # the files the preflight below reads
    (wall, _), (alone, _) = measure_together([press, press + ["--jobs", "1"]], args.repeat)
    checked, _ = measure(cli("--root", str(ROOT), "preflight", str(out / "ja" / "print-shop"), "--quiet"), args.repeat)
    print(f"   build --for print-shop        {wall:.2f} s ({cpu_of(press):.2f} CPU s; --jobs 1: {alone:.2f} s)")
    print(f"   preflight of the seven PDFs   {checked:.2f} s")

    print("\n7. a translator's commands")
    game = tmp / "i18n-game"
    game.mkdir()
    for name in ("cards.yaml", "ppgen.yaml"):
        shutil.copy(ROOT / name, game / name)
    for folder in ("locales", "templates"):
        shutil.copytree(ROOT / folder, game / folder)
    (game / "fonts").symlink_to(ROOT / "fonts")
    new = []
    for _ in range(args.repeat):  # a language started: its locale file made from nothing, every key in English's order
        (game / "locales" / "ko.yaml").unlink()
        new.append(measure(cli("--root", str(game), "i18n", "sync", "--lang", "ko", "--quiet"), 1, env)[0])
    check, _ = measure(cli("--root", str(game), "i18n", "check", "--lang", "ja", "--quiet"), args.repeat, env)
    measure(cli("--root", str(game), "build", "--lang", "ja", "--parts", "cards", "--quiet"), 1, env)  # the layouts the check then takes
    built, _ = measure(cli("--root", str(game), "i18n", "check", "--lang", "ja", "--quiet"), args.repeat, env)
    print(f"   i18n sync, a new language     {statistics.median(new):.2f} s  (its 831 keys written, in English's order; 11 s before 2026-12-03)")
    print(f"   i18n check --lang ja          {check:.2f} s  ({built:.2f} s after a build: its card texts' layouts taken)")
    shutil.rmtree(tmp, ignore_errors=True)


def targets(to_base2: dict, floor: dict, kept: float, validate: float, helpw: float, all_ratio: float, all_one: float,
            rss_all: float) -> None:
    """Each target of the speed issue against what this run measured (the scale's memory per card
    is in the next section)."""
    def line(what: str, figure: str, met: bool) -> None:
        print(f"   {what:<76}{figure:<30}{'met' if met else 'NOT met'}")

    print("\n4. targets (each against this run's figures)")
    low, high = min(floor.values()), max(floor.values())
    if floor["ja"] > 2:  # the rule: the drawing's floor above 2 × baseline 1 makes the target 1.3 × baseline 2
        line(f"build ≤ 1.3 × baseline 2 (ja's floor {floor['ja']:.1f} × baseline 1 > 2; all {low:.1f}–{high:.1f})",
             f"ja {to_base2['ja']:.2f} ×, worst {max(to_base2.values()):.2f} ×", to_base2["ja"] <= 1.3)
    else:  # otherwise the target stays 2 × baseline 1
        to_base1 = {lang: to_base2[lang] * floor[lang] for lang in floor}
        line(f"build ≤ 2.0 × baseline 1 (ja's floor {floor['ja']:.1f} × baseline 1, not above 2)",
             f"ja {to_base1['ja']:.2f} ×, worst {max(to_base1.values()):.2f} ×", to_base1["ja"] <= 2.0)
    line("second build, nothing changed ≤ 0.5 s", f"{kept:.2f} s", kept <= 0.5)
    line("ppgen validate ≤ 0.25 s over python -c pass", f"+{validate:.3f} s", validate <= 0.25)
    line("ppgen --help ≤ 0.2 s", f"{helpw:.3f} s", helpw <= 0.2)
    line("--lang all ≤ 0.5 × the sum of the four single builds", f"{all_ratio:.2f} × ({all_one:.2f} × one-process)", all_ratio <= 0.5)
    line("--lang all peak RSS ≤ 300 MB", f"{rss_all:.0f} MB", rss_all <= 300)


if __name__ == "__main__":
    main()
