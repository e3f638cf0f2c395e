"""The writes: what the API, the pages and the command line do to a table, in plain values and the
domain's words (:mod:`scorekeeper.domain`), never HTTP. :mod:`~scorekeeper.services.operations`
holds every write of a tabletop game; :mod:`~scorekeeper.services.virtual` a virtual game's, one
call per action. They stage and flush; the request's transaction, or the command's, commits.
The reads are their sibling, :mod:`scorekeeper.results`."""
