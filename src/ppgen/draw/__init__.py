"""Drawing things: card faces (and later rulebook pages, mats). Each module draws onto a
canvas region and knows nothing about paper or imposition."""
