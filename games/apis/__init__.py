"""Game endpoints, one module per part of the game as games/services/ is split: the lobby,
leaving, invitations, play (state, hints, moves and history), records and replays.

Thin views (HackSoft style): validate input with a nested serializer, call one service
or selector, render its result with an output serializer (games/serializers.py). The
rules live in the engine; the transactions in services.
"""
