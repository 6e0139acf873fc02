"""Typesetting: text in boxes, as a typesetter of each language would set it.

    fonts      font chains per language and role; glyph coverage; registration with ReportLab
    linebreak  UAX #14 line-break opportunities with kinsoku (ja/zh), words (en/ko)
    text       the text engine: runs by font, **bold**, lines, shrink-to-fit, drawing a layout
    flow       page flow for long documents: headings kept with text, tables split with headers
"""
