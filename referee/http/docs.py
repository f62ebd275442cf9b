"""A readable page of the contract, rendered on the server from openapi.yaml.

No script or asset is fetched from elsewhere: the page is one self-contained HTML document,
so it works on a closed network."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import yaml
from jinja2 import Environment, select_autoescape

TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{{ spec.info.title }} {{ spec.info.version }}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:64rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{border-bottom:1px solid #ccc;padding-bottom:.2rem}
.op{border:1px solid #ddd;border-radius:6px;margin:1rem 0;padding:.6rem 1rem}
.m{display:inline-block;min-width:4rem;font-weight:bold;text-transform:uppercase}
.get{color:#1565c0}.post{color:#2e7d32}
pre{background:#f6f6f6;padding:.6rem;overflow:auto;font-size:.85rem}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}
</style></head><body>
<h1>{{ spec.info.title }} <small>{{ spec.info.version }}</small></h1>
{% for paragraph in spec.info.description.split("\\n\\n") %}<p>{{ paragraph }}</p>{% endfor %}
<p>The machine-readable contract: <a href="/openapi.yaml">/openapi.yaml</a>.</p>
<h2>Endpoints</h2>
{% for path, ops in spec.paths.items() %}{% for method, op in ops.items() if method in methods %}
<div class="op" id="{{ op.operationId }}">
<div><span class="m {{ method }}">{{ method }}</span> <code>{{ path }}</code> — {{ op.summary }}</div>
{% if op.description %}<p>{{ op.description }}</p>{% endif %}
<table><tr><th>status</th><th>meaning</th></tr>
{% for status, resp in op.responses.items() %}<tr><td>{{ status }}</td><td>{{ resolve(resp).description }}</td></tr>{% endfor %}
</table>
{% if op.requestBody %}{% for media, body in op.requestBody.content.items() %}{% for name, ex in (body.examples or {}).items() %}
<p>Example request ({{ name }}):</p><pre>{{ dump(ex.value) }}</pre>{% endfor %}{% endfor %}{% endif %}
</div>{% endfor %}{% endfor %}
<h2>Error codes</h2>
<table><tr><th>code</th><th>status</th><th>meaning</th></tr>
{% for row in spec.get("x-error-codes", []) %}<tr><td><code>{{ row.code }}</code></td><td>{{ row.status }}</td><td>{{ row.meaning }}</td></tr>{% endfor %}
</table>
<h2>Schemas</h2>
{% for name, schema in spec.components.schemas.items() %}
<h3 id="{{ name }}">{{ name }}</h3>{% if schema.description %}<p>{{ schema.description }}</p>{% endif %}
<pre>{{ dump(schema) }}</pre>{% endfor %}
</body></html>
"""

METHODS = ("get", "post", "put", "patch", "delete")


@functools.lru_cache(maxsize=4)
def render_docs(path: Path) -> str:
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    env = Environment(autoescape=select_autoescape(default=True))
    def resolve(node):
        """A `$ref` inside the document, followed (responses are shared components)."""
        while isinstance(node, dict) and "$ref" in node:
            target = spec
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    return env.from_string(TEMPLATE).render(
        spec=spec, methods=METHODS, resolve=resolve,
        dump=lambda v: json.dumps(v, indent=2, ensure_ascii=False))


def served_contract(path: Path, game_ids: list[str]) -> bytes:
    """openapi.yaml as this deployment serves it: the `game_id` parameter lists the games the
    registry holds, so a client (or a contract fuzzer) knows the valid ids."""
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    parameter = spec["components"]["parameters"]["GameId"]
    parameter["schema"] = {"type": "string", "enum": list(game_ids)}
    parameter["examples"] = {gid: {"value": gid} for gid in game_ids}
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True).encode("utf-8")
