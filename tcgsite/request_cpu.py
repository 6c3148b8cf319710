"""The CPU each request takes in a web process, written down for the soak benchmark.

Off unless ``REQUEST_CPU_LOG`` names a folder (benchmarks/soak.py sets it). Each web process
then appends a line a request to a file of its own in that folder: when the request ended
(Unix time), its kind (the view's URL name and the method), and the CPU time and the wall time
it took in milliseconds. The CPU time is the thread's: under daphne Django runs the whole
middleware chain and the view on one thread, so it is what the request cost there, without the
event loop's share (reading the request, writing the answer) or other threads' work.
"""

import os
import time
from pathlib import Path

from django.conf import settings

# Lines are written in batches: a write a request would itself be a cost worth measuring.
LINES_A_WRITE = 50


class RequestCpuMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.pending: list[str] = []
        self.path = Path(settings.REQUEST_CPU_LOG) / f"web-{os.getpid()}.tsv"

    def __call__(self, request):
        cpu_started = time.thread_time()
        wall_started = time.perf_counter()
        response = self.get_response(request)
        cpu_ms = (time.thread_time() - cpu_started) * 1000
        wall_ms = (time.perf_counter() - wall_started) * 1000
        match = request.resolver_match
        kind = f"{match.view_name if match else 'unresolved'} {request.method}"
        self.pending.append(f"{time.time():.3f}\t{kind}\t{cpu_ms:.3f}\t{wall_ms:.3f}\n")
        if len(self.pending) >= LINES_A_WRITE:
            with self.path.open("a") as log:
                log.writelines(self.pending)
            self.pending.clear()
        return response
