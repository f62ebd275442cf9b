"""The referee's use cases, free of any web framework: create a match, post a move, dry-run
one, show a player's view, list legal moves, give a hint, draw and commit a seed, take a
player's seed, draw a player's view or a Generala sheet.

Each takes checked request values and answers plain data, or raises a domain error: the games'
own (`referee.core.errors`) or the service's (`referee.service.errors`). Only the HTTP layer
(`referee.http`) turns those into problem responses and status codes.
"""
