"""Real races for the concurrency tests against PostgreSQL: work run on threads released at
the same instant, each on its own database connection."""

import threading

from django.db import connection, transaction


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


def race_while_first_is_uncommitted(first, second) -> list:
    """Run ``first`` in a transaction that stays open until ``second``, in another thread,
    has had time to read what ``first`` wrote and to wait on its rows: ``second`` reads the
    rows as they were, and meets ``first``'s writes only through locks and constraints (a
    name taken in another case, a deck or a guild deleted meanwhile)."""
    written = threading.Event()
    results: list = [None, None]

    def run_first():
        try:
            with transaction.atomic():
                results[0] = first()
                written.set()
                second_thread.join(timeout=1)  # still running: it waits on our row
        except Exception as error:  # the test inspects what each thread met
            results[0] = error
        finally:
            written.set()
            connection.close()

    def run_second():
        written.wait(timeout=30)
        try:
            results[1] = second()
        except Exception as error:  # the test inspects what each thread met
            results[1] = error
        finally:
            connection.close()

    first_thread = threading.Thread(target=run_first)
    second_thread = threading.Thread(target=run_second)
    # The second starts first (it waits for the first's writes): the first joins it, which
    # fails on a thread not started yet, as it was when a busy machine let the first run on.
    second_thread.start()
    first_thread.start()
    first_thread.join(timeout=30)
    second_thread.join(timeout=30)
    return results
