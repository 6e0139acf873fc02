"""Drawing: one module per thing drawn. Each receives loaded data and a canvas (or a
region of one), and neither reads nor writes a file, nor knows about paper or imposition.

    faces        CardGeometry, the face protocol (key + draw), form names
    card_front   a card's front: frame, art, badges, texts from templates/card.yaml
    card_back    the back every card shares
    emblems      faction emblems and small icons, as vector paths
    ornament     borders, rules and flourishes shared by the rulebook and mats
    colours      colour blends, contrast, template colour names per faction
    rulebook     the rulebook's pages, poured by typeset.flow
    mat          the player mat; dice the dice drawn on it
    score_sheet  the score sheet for play without dice
    style        drawing helpers: text styles per language, fitted labels
    words        the words a drawing prints, placeholders filled from the rules
"""
