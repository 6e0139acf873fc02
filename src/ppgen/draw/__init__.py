"""Drawing: one module per thing drawn — card fronts and backs, emblems, the rulebook,
player mats, the score sheet. Each draws onto a canvas (or a region of one) and knows
nothing about paper or imposition."""
