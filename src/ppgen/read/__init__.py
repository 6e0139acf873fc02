"""Reading a game directory: every file a person edits, checked, with file:line:col problems.

    gamedir    where a game's files are (cards.yaml, ppgen.yaml, locales/, templates/, fonts/)
    files      reading text people wrote: size limit, strict UTF-8
    yamlio     YAML with the position of every key and value; no aliases, bounded nesting
    schema     typed, checked mappings with "did you mean" (one mechanism for every file)
    config     ppgen.yaml: languages and their fonts, build defaults
    model      Card, Faction, BonusPart, Rules: the game as data
    game       cards.yaml → Game
    locale     locales/<lang>.yaml → Locale: words, English fallback, source hashes
    templates  templates/card.yaml → CardTemplate (geometry, palette, styles per kind)
    styles     templates/rulebook-style.yaml and mat-style.yaml
    rulebook   templates/rulebook.yaml: the rulebook's sections and blocks

Nothing here draws, and nothing here imports the PDF stack.
"""
