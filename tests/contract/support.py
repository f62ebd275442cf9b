"""Validating bodies against the committed contract's schemas (JSON Schema 2020-12, as
OpenAPI 3.1 uses it), with every `$ref` resolved inside the document."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml
from openapi_schema_validator import OAS31Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

CONTRACT_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
SPEC = yaml.safe_load(CONTRACT_PATH.read_text(encoding="utf-8"))
BASE = "urn:referee:contract"
REGISTRY = Registry().with_resource(BASE, Resource(contents=SPEC, specification=DRAFT202012))


@functools.cache
def validator(schema_name: str) -> OAS31Validator:
    return OAS31Validator({"$ref": f"{BASE}#/components/schemas/{schema_name}"},
                          registry=REGISTRY)


def problems(schema_name: str, body: Any) -> list[str]:
    """Every way `body` breaks the named schema (empty when it fits)."""
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator(schema_name).iter_errors(body)]


def operation(path: str, method: str = "post") -> dict[str, Any]:
    return SPEC["paths"][path][method]


def schema_name(reference: dict[str, str]) -> str:
    return reference["$ref"].rsplit("/", 1)[1]
