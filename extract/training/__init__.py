"""Training the shipped SciERC entity model: data conversion and the kept spaCy configs."""
