"""The ``laro`` command line (click + rich): play against bots, replay records, read the rules.

The entry point is :func:`laro.cli.main.main`; each subcommand lives in its own module, and each game's look in
the terminal in a view module (``lama_view``) found through :func:`laro.cli.views.view_for`.
"""
