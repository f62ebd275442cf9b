"""The floor for HTTP figures: a bare Flask endpoint that parses the same JSON body and
answers it back, served by the same gunicorn settings as the referee."""

from flask import Flask, jsonify, request


def create_app() -> Flask:
    app = Flask(__name__)

    @app.post("/echo")
    def echo():
        return jsonify(request.get_json())

    return app
