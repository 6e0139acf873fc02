"""Imposition: faces placed on sheets of paper.

    layout       the grid on the paper: slots for fronts and backs, duplex, fold-over (plan_sheets)
    geometry     Rect, Segment, NoteSlot in points
    marks        crop marks at every cut line; free margin for notes
    sheets       drawing imposed pages: faces as forms in their slots, marks, the print note
    calibration  the duplex alignment test page (`ppgen calibrate`)
    cutter       print-and-cut sheets for a cutting machine: registration marks, exclusion zones
"""
