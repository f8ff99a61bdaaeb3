"""kibitz's command groups, one module per game, and the helpers they share (:mod:`commands.common`);
``cli.py`` adds the groups to the root group."""
