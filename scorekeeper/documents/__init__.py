"""The documents the app reads and writes whole, outside one resource: a table's export and its
import, the history's CSV files, and score sheets scored without being stored. Each is checked
by its schema (:mod:`scorekeeper.schemas`) and built from the services and results below."""
