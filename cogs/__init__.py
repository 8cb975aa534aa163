"""The Discord face, a package per feature: ``play``, ``replays``, ``scores``, ``puzzles``,
``brain``, ``admin``, ``servers`` and ``pictures``, over ``utils`` (what every feature
shares). ``commands`` declares ``/ttt`` and ``/connect4``, each subcommand one line into
its feature; ``bot.py`` builds the features and hands each what it shares with others.
Thin: parse the interaction, call the game flow, render the reply."""
