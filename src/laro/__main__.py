"""``python -m laro``: the same as the ``laro`` command."""

from laro.cli.main import main

main()
