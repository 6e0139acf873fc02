"""`ppgen calibrate`: a duplex alignment test page, to find the printer's back offset."""
from __future__ import annotations

import click

from . import main_group
from .build import finish, sheet_options


@main_group.command("calibrate")
@sheet_options
@click.option("--strict", is_flag=True, help="Fail (exit 1) on any warning, and do not write that language's PDF.")
@click.pass_obj
def calibrate_command(ui, lang, out, paper, duplex, back_offset, strict):
    """Print a duplex alignment test, to read the back offset your printer needs.

    Print the two pages of OUT/LANG/calibrate-LANG-PAPER-EDGE.pdf (e.g.
    calibrate-en-a4-long.pdf; each paper and flip edge has a file of its own) on
    one sheet, double-sided, at 100 %, with the flip edge you will use for the
    cards. Hold the sheet up to a light: in the numbered X boxes and Y boxes, the
    box where the back's line continues the front's line names the offset. Then
    build with
    `ppgen build --back-offset X,Y`. The page explains this in its language.

    \b
    Examples:
      ppgen calibrate                         A4, flip on long edge, English
      ppgen calibrate --lang ja --paper letter --duplex short
      ppgen calibrate --back-offset 1.5,-0.5  check a correction: the 0 boxes should line up
    """
    from ..project import load
    from ..write.build import BuildOptions, build_calibration

    project = load(ui.root)
    options = BuildOptions.resolve(project, lang=lang, out=out, paper=paper, duplex=duplex, back_offset=back_offset, strict=strict)
    result = build_calibration(project, options)
    finish(ui, project, result, None, what="calibration page")
