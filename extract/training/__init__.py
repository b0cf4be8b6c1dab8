"""Training the shipped entity model (`paperkg train`): the recipe, its corpora and spaCy configs."""
