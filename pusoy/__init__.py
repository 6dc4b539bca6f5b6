"""Pusoy Dos as a library: the rules engine (``pusoy.engine``) and the bots (``pusoy.ai``).

Plain, typed Python with no Django and no side effect on import. The compiled build of
the search's hot modules (``pusoy.compiled``) is an opt-in: call
``pusoy.compiled.install()`` before importing the engine to use a current build (the
service and the benchmarks do); otherwise everything runs as plain Python and plays the
same moves.
"""
