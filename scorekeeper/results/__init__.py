"""What the history says: each game's standing, the leaderboard, ratings, head-to-head records
and seasons."""
