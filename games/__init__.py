"""Games: the rules engine (``games.engine``), the bots (``games.ai``) and the service.

Before any of them is imported, the compiled build of the search's modules is put in
place when it is current (``games.compiled``); otherwise they run as plain Python.
"""

from games import compiled

compiled.install()
