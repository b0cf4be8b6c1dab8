"""`python -m paperkg` runs the CLI."""
from paperkg.cli import main

main()
