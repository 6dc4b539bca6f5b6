"""Fire requests from many threads at the same instant."""

from __future__ import annotations

import threading

from django.db import connection


def fire(requests):
    """Run the callables at the same instant, one thread each; return their responses."""
    barrier = threading.Barrier(len(requests))
    results = [None] * len(requests)

    def run(i, request):
        try:
            barrier.wait()
            results[i] = request()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, r)) for i, r in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
