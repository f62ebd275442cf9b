"""The nginx example of docs/OPERATIONS.md ("Rate limits and timeouts") answers its own
refusals as the referee's problems: each `return` is a problem of its status, with a code of
the catalogue and that code's status and title (too_many_requests, the edge's own, aside);
and, where nginx is installed, the example is a valid configuration."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.http.problems import CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = (ROOT / "docs" / "OPERATIONS.md").read_text(encoding="utf-8")
EXAMPLE = re.search(r"```nginx\n(.*?)```", OPERATIONS, re.S).group(1)
EDGE_ONLY = {"too_many_requests": 429}


def test_every_refusal_of_the_example_is_a_problem_of_the_catalogue():
    answers = re.findall(r"return (\d{3}) '(\{.*?\})';", EXAMPLE)
    assert len(answers) >= 6
    for status, body in answers:
        problem = json.loads(body)
        code = problem["code"]
        assert problem["status"] == int(status)
        assert problem["type"] == f"urn:referee:problem:{code}"
        if code in EDGE_ONLY:
            assert EDGE_ONLY[code] == int(status)
            continue
        assert CATALOGUE[code] == (int(status), problem["title"]), code
    mapped = re.findall(r"error_page (\d{3}) (?:=\d{3} )?/\.problem/(\w+);", EXAMPLE)
    returned = {json.loads(body)["code"] for _, body in answers}
    assert {code for _, code in mapped} == returned
    assert {"400", "403", "413", "414", "429", "494"} <= {status for status, _ in mapped}


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
def test_the_example_is_a_valid_nginx_configuration(tmp_path):
    server = EXAMPLE.replace("listen 443 ssl;", "listen 127.0.0.1:8443;")
    temp = f"{tmp_path}"
    (tmp_path / "nginx.conf").write_text(f"""
pid {temp}/nginx.pid; error_log {temp}/error.log;
events {{}}
http {{
  access_log off; client_body_temp_path {temp}; proxy_temp_path {temp};
  fastcgi_temp_path {temp}; uwsgi_temp_path {temp}; scgi_temp_path {temp};
  upstream referee {{ server 127.0.0.1:8000; }}
{server}
}}
""")
    checked = subprocess.run(["nginx", "-t", "-c", str(tmp_path / "nginx.conf"), "-p", temp],
                             capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
