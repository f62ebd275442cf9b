"""The problems of a path nobody serves (404) and of a method a path does not take (405): their
`detail` is Werkzeug's sentence for the error, word for word, not the bare code or the status
line, and a 405 says in `Allow` which methods the path takes."""

from __future__ import annotations

import pytest

PROBLEM = "application/problem+json"
NOT_FOUND = ("The requested URL was not found on the server. If you entered the URL manually "
             "please check your spelling and try again.")
NOT_ALLOWED = "The method is not allowed for the requested URL."


def problem_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM
    body = response.get_json(force=True)
    assert (body["code"], body["status"], body["type"]) == (
        code, status, f"urn:referee:problem:{code}")
    return body


@pytest.mark.parametrize("method, path", [
    ("GET", "/v2/nothing"),
    ("GET", "/v1/games/generala-dice/nothing"),
    ("POST", "/v1/games/huit-americain/moves/again"),
    ("GET", "/docs/static/index.html"),
    ("GET", "/"),
])
def test_a_path_nobody_serves_is_a_404_with_werkzeugs_sentence(client, method, path):
    body = problem_of(client.open(path, method=method), 404, "not_found")
    assert body["detail"] == NOT_FOUND
    assert body["title"] == "No such path"


@pytest.mark.parametrize("method, path, allowed", [
    ("DELETE", "/v1/games", "GET, HEAD"),
    ("POST", "/v1/games", "GET, HEAD"),
    ("GET", "/v1/games/generala-dice/moves", "POST"),
    ("PUT", "/v1/games/empereur/matches", "POST"),
    ("OPTIONS", "/v1/games/generala-dice/moves", "POST"),
    ("PUT", "/healthz", "GET, HEAD"),
])
def test_a_method_the_path_does_not_take_is_a_405_with_werkzeugs_sentence(client, method, path,
                                                                          allowed):
    response = client.open(path, method=method)
    body = problem_of(response, 405, "method_not_allowed")
    assert body["detail"] == NOT_ALLOWED
    assert body["title"] == "The method is not allowed on this path"
    assert set(response.headers["Allow"].split(", ")) == set(allowed.split(", "))


def test_the_sealed_service_words_them_the_same(sealed_client):
    assert problem_of(sealed_client.get("/v2/nothing"), 404, "not_found")["detail"] == NOT_FOUND
    assert problem_of(sealed_client.delete("/v1/games"), 405,
                      "method_not_allowed")["detail"] == NOT_ALLOWED
