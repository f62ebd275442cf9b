"""The declared operations (referee.http.operations) are what the application serves: each is
routed, the browser routes and the seat-token envelopes follow their callers, and the use
cases they run (referee.service) need no web framework."""

from __future__ import annotations

import subprocess
import sys

import referee
from referee.http.operations import OPERATIONS, SEAT_ENVELOPES
from referee.http.routes import BROWSER_ROUTES
from referee.http.schemas import envelope_schemas


def test_every_declared_operation_is_routed_for_post_only():
    app = referee.create_app({"STATE_KEYS": []})
    methods = {rule.rule: rule.methods - {"HEAD", "OPTIONS"} for rule in app.url_map.iter_rules()}
    for op in OPERATIONS:
        for rule, _ in op.rules():
            assert methods[rule] == {"POST"}, rule


def test_a_seat_token_is_taken_by_the_envelopes_of_the_operations_declared_for_it():
    schemas = envelope_schemas(64, 256)
    taking = {kind for kind, schema in schemas.items() if "seat_token" in schema.fields}
    assert taking == SEAT_ENVELOPES
    assert SEAT_ENVELOPES == {"legal_moves", "validation", "view", "hint", "view_image"}


def test_browsers_may_call_the_catalogue_and_what_a_seat_token_may_ask_only():
    assert BROWSER_ROUTES.fullmatch("/v1/games")
    assert BROWSER_ROUTES.fullmatch("/v1/games/huit-americain")
    for op in OPERATIONS:
        path = f"/v1/games/huit-americain/{op.segment}"
        assert bool(BROWSER_ROUTES.fullmatch(path)) == op.by_seat, path


def test_the_use_cases_import_no_web_framework():
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, referee.service.referee; print(' '.join(sorted("
         "{m.split('.')[0] for m in sys.modules})))"],
        capture_output=True, text=True, check=True).stdout.split()
    assert not {"flask", "werkzeug", "marshmallow", "apispec", "flask_cors"} & set(loaded)
