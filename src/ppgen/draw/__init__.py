"""Drawing: one module per thing drawn (card fronts, backs, emblems); none knows about paper."""
