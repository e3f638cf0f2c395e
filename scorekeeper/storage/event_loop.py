"""Running under gevent's worker (the unit's ``gunicorn -k gevent``): gevent's monkey-patching
makes the standard library's threads, locks, sockets and ``select`` cooperative, but not a call
that blocks in C (``flock``), and it runs a signal handler inside whichever greenlet the signal
interrupts. What must not stop the worker, or must not run there, goes through here; without
gevent, each runs as it is.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def _gevent() -> Any | None:
    """The gevent module, if this process runs monkey-patched by it (imported, never here)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("threading"):
        return None
    return sys.modules["gevent"]


def off_the_loop(call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)``, which blocks its thread until another process lets go: under gevent, in
    its pool of native threads, so that the worker's other requests go on meanwhile."""
    gevent = _gevent()
    if gevent is None:
        return call(*args)
    return gevent.get_hub().threadpool.apply(call, args)


def soon(call: Callable[[], Any]) -> None:
    """``call()`` from a signal handler: under gevent, in a greenlet of its own, since the
    greenlet the signal interrupted may hold the very lock ``call`` takes; otherwise now."""
    gevent = _gevent()
    if gevent is None:
        call()
    else:
        gevent.spawn(call)
