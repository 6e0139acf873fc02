"""Writing PDFs: documents, the parts of a set, the build, its report, atomic files.

    pdf         Document: embedded fonts, each face drawn once as a form, invariant bytes
    parts       the parts of a set (rulebook, mats, score sheet, card sheets, tuck boxes) and their assembly
    cutfile     print-and-cut cut files (SVG, DXF), one per printed side
    build       `ppgen build`: options, languages in parallel processes, --strict, writing
    report      the warnings of a build, as text and JSON
    faces       one-page-per-face PDFs (previews, exports)
    standalone  one part as a PDF of its own (development, tests)
    atomic      writing a file atomically: a temporary file, then a rename
"""
