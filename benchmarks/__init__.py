"""Benchmarks: scripts that print numbers (docs/performance.md, docs/ai.md). They measure
the bots as the service runs them, so they opt in to the compiled search when a current
build exists (``pusoy.compiled``), before anything imports the engine, and let the
expert's searches tune the garbage collector as they do in the workers."""

from pusoy import compiled

compiled.install()

from pusoy.ai import expert  # noqa: E402  (after the opt-in above)

# A benchmark process exists to search, as a Celery worker does.
expert.tune_collector()
