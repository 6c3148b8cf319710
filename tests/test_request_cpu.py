"""Each request's CPU as the web processes write it down for benchmarks/soak.py
(tcgsite/request_cpu.py)."""

import os

from django.http import HttpResponse
from django.test import RequestFactory, override_settings
from django.urls import resolve

from tcgsite.request_cpu import LINES_A_WRITE, RequestCpuMiddleware


def test_each_request_is_written_down_with_its_view_and_cpu(tmp_path):
    with override_settings(REQUEST_CPU_LOG=str(tmp_path)):
        middleware = RequestCpuMiddleware(lambda request: HttpResponse("ok"))
    requests = RequestFactory()
    for number in range(LINES_A_WRITE):
        request = requests.get("/cards/") if number % 2 else requests.post("/store/buy/")
        request.resolver_match = resolve(request.path)
        middleware(request)

    lines = (tmp_path / f"web-{os.getpid()}.tsv").read_text().splitlines()

    assert len(lines) == LINES_A_WRITE
    kinds = {line.split("\t")[1] for line in lines}
    assert kinds == {"cards:card_list GET", "collection:store_buy POST"}
    ended, _kind, cpu_ms, wall_ms = lines[0].split("\t")
    assert float(ended) > 0 and float(cpu_ms) >= 0 and float(wall_ms) >= 0


def test_a_request_no_view_answered_is_written_down_as_unresolved(tmp_path):
    with override_settings(REQUEST_CPU_LOG=str(tmp_path)):
        middleware = RequestCpuMiddleware(lambda request: HttpResponse(status=404))
    for _ in range(LINES_A_WRITE):
        middleware(RequestFactory().get("/no/such/page/"))

    lines = (tmp_path / f"web-{os.getpid()}.tsv").read_text().splitlines()

    assert {line.split("\t")[1] for line in lines} == {"unresolved GET"}
