"""The reads: the queries the views need, each written once (:mod:`~scorekeeper.results.queries`:
a table or a seat by its token, a table's games, a game checked against its token), and what the
history says: each game's standing, the leaderboard, ratings, head-to-head records and seasons.
The writes are their sibling, :mod:`scorekeeper.services`; neither imports the other."""
