"""Real races for the concurrency tests against PostgreSQL: work run on threads released at
the same instant, each on its own database connection."""

import threading

from django.db import connection


def race(*works) -> list:
    """Run each of ``works`` in its own thread, released together; each result or exception."""
    barrier = threading.Barrier(len(works))
    results: list = [None] * len(works)

    def run(index):
        try:
            barrier.wait()
            results[index] = works[index]()
        except Exception as error:  # the test inspects what each thread met
            results[index] = error
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(works))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results
