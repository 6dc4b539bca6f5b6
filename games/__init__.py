"""Games: the Django app that stores and serves games (models, services, the API, the
tasks). The rules engine and the bots are the ``pusoy`` package, which it plays with.

The service opts in to the compiled build of the search (``pusoy.compiled``) here,
before anything imports the engine: a current build is used, otherwise plain Python.
"""

from pusoy import compiled

compiled.install()
