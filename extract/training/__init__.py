"""Training the shipped entity model (`paperkg train`): the recipe, its corpora, vectors and spaCy configs."""
