"""What the API, the pages and the command line do to a table, in plain values: every write of a
tabletop game, the virtual games, stateless scoring, and the words for names, levels and moves."""
