"""The state of one deal: hands, turn, trick, passes, history; legal moves, checks, scoring.

``DealState`` is mutable like a chess board: ``legal_moves()``, ``check(move, seat)``,
``apply(move)``. ``view(seat)`` gives the ``PlayerView`` a client or a bot may see.
Internally cards are bit masks and plays ``(mask, key)`` pairs (see ``tables``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pusoy.engine.cards import Card, cards_of, mask_of, mask_text
from pusoy.engine.errors import EngineError, IllegalMoveError, InvalidMoveError
from pusoy.engine.fast import FastState
from pusoy.engine.match import MatchStanding
from pusoy.engine.movegen import Plays, legal_plays
from pusoy.engine.moves import PASS, Move, Play, cards_to_mask, moves_from_plays
from pusoy.engine.rules import Rules
from pusoy.engine.scoring import deal_points, places_by_cards_left
from pusoy.engine.tables import SIZE_SHIFT, CardMask, PlayKey, kind_of_key, tables_for

History = tuple[tuple[int, Move], ...]


@dataclass(frozen=True)
class DealResult:
    """The outcome of a deal. ``points`` and ``cards_left`` are taken when the winner
    (the first player out) goes out; ``places`` is the finishing order (with ``play_out``
    the real order, otherwise the winner then fewest cards left)."""

    winner: int
    points: list[int]
    places: list[int]
    cards_left: list[int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "points": list(self.points),
            "places": list(self.places),
            "cards_left": list(self.cards_left),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DealResult:
        return cls(
            winner=data["winner"],
            points=list(data["points"]),
            places=list(data["places"]),
            cards_left=list(data["cards_left"]),
        )


def move_entry(seat: int, move: Move) -> dict[str, Any]:
    """A move as written in records and snapshots: ``{"seat": 0, "play": ["3C"]}`` or
    ``{"seat": 3, "pass": true}``."""
    if move.is_pass:
        return {"seat": seat, "pass": True}
    return {"seat": seat, "play": [str(c) for c in move.cards]}


def public_fields(source: DealState | PlayerView) -> dict[str, Any]:
    """The public part of a state or view as JSON (no hand but the counts)."""
    to_beat = source.to_beat
    required = source.required_card
    result = source.result
    return {
        "card_counts": list(source.card_counts),
        "turn": source.turn,
        "to_beat": None if to_beat is None else [str(c) for c in to_beat.cards],
        "to_beat_kind": None if to_beat is None else to_beat.kind,
        "trick_leader": source.trick_leader,
        "last_player": source.last_player,
        "passed": sorted(source.passed),
        "in_play": sorted(source.in_play),
        "required_card": None if required is None else str(required),
        "played_cards": [str(c) for c in source.played_cards],
        "finished_order": list(source.finished_order),
        "seq": source.seq,
        "is_over": source.is_over,
        "result": None if result is None else result.to_dict(),
        "face_up_card": (
            None
            if source.face_up_card is None
            else {"card": str(source.face_up_card), "seat": source.face_up_seat}
        ),
    }


def _bad_hands(message: str) -> EngineError:
    return EngineError("bad_hands", message)


class DealState:
    """One deal in progress (or finished). Seat order is turn order."""

    __slots__ = (
        "_dealt",
        "_f",
        "_face_up",
        "_finished",
        "_first_leader",
        "_history",
        "_initial",
        "_leader",
        "_n",
        "_opening",
        "_result",
        "_rules",
        "_score",
        "_set_aside",
        "_t",
    )

    # ----------------------------------------------------------------- construction
    @classmethod
    def new(
        cls,
        rules: Rules | str | Mapping[str, Any] | None,
        hands: Sequence[Iterable[Card | str] | str],
        *,
        leader: int | None = None,
        set_aside: Iterable[Card | str] | str = (),
        face_up: Card | str | None = None,
    ) -> DealState:
        """A deal about to start.

        ``leader=None``: a first deal; the holder of the opening card leads and must
        include it, or, when the opening card was not dealt, the holder of the lowest
        card dealt leads and must include that card. ``leader=seat``: a later deal of a
        match; that seat leads with any play. ``face_up``: a card of one of the hands
        that was dealt face up (3 players, ``leftover: to-opening-holder``): every view
        shows it and its holder.
        """
        rules = Rules.from_spec(rules)
        if not 2 <= len(hands) <= 4:
            raise _bad_hands(f"a deal has 2 to 4 hands, not {len(hands)}")
        masks = []
        seen = 0
        for hand in [*hands, set_aside]:
            try:
                mask = cards_to_mask(hand)
            except InvalidMoveError as error:
                if error.code == "duplicate_cards":
                    raise _bad_hands(f"a card is dealt twice: {error.message}") from None
                raise
            if mask & seen:
                raise _bad_hands(f"a card is dealt twice: {mask_text(mask & seen)}")
            seen |= mask
            masks.append(mask)
        set_aside_mask = masks.pop()
        if not all(masks):
            raise _bad_hands("every hand needs at least one card")
        if leader is not None and (type(leader) is not int or not 0 <= leader < len(masks)):
            raise _bad_hands(f"no seat {leader!r} to lead")
        face_up_mask = 0
        if face_up is not None:
            face_up_mask = Card.parse(face_up).mask
            if not any(mask & face_up_mask for mask in masks):
                raise _bad_hands(f"the face-up card {mask_text(face_up_mask)} is in no hand")
        self = cls.__new__(cls)
        self._setup(rules, masks, set_aside_mask, leader, face_up_mask)
        return self

    @classmethod
    def from_seed(
        cls,
        rules: Rules | str | Mapping[str, Any] | None,
        seed: bytes,
        num_players: int,
        *,
        leader: int | None = None,
    ) -> DealState:
        """A deal dealt by the fair shuffle of ``shuffle.deal_from_seed`` (with its
        face-up card, if any)."""
        from pusoy.engine.shuffle import deal_from_seed, face_up_card

        rules = Rules.from_spec(rules)
        hands, set_aside = deal_from_seed(seed, rules, num_players)
        face_up = face_up_card(seed, rules, num_players)
        return cls.new(rules, hands, leader=leader, set_aside=set_aside, face_up=face_up)

    def _setup(
        self, rules: Rules, hands: list[int], set_aside: int, leader: int | None, face_up: int
    ) -> None:
        t = tables_for(rules)
        self._face_up = face_up
        self._rules = rules
        self._t = t
        self._n = n = len(hands)
        self._initial = tuple(hands)
        self._dealt = tuple(h.bit_count() for h in hands)
        self._set_aside = set_aside
        self._leader = leader
        required = 0
        if leader is None:
            dealt = 0
            for h in hands:
                dealt |= h
            opening = rules.opening_card.mask
            if not dealt & opening:
                # The opening card was set aside: the lowest card dealt opens instead.
                index = min((i for i in range(52) if dealt >> i & 1), key=lambda i: t.single_key[i])
                opening = 1 << index
            required = opening
            leader = next(s for s in range(n) if hands[s] & opening)
        self._opening = required
        self._first_leader = leader
        self._f = FastState.at_start(rules, list(hands), list(self._dealt), leader, required)
        self._history: list[tuple[int, int]] = []
        self._finished: list[int] = []
        self._score: tuple[int, list[int], list[int]] | None = None
        self._result: DealResult | None = None

    def copy(self) -> DealState:
        other = DealState.__new__(DealState)
        for name in DealState.__slots__:
            setattr(other, name, getattr(self, name))
        other._f = self._f.copy()
        other._history = list(self._history)
        other._finished = list(self._finished)
        return other

    # ------------------------------------------------------------------- properties
    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(cards_of(h) for h in self._f.hands)

    @property
    def initial_hands(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(cards_of(h) for h in self._initial)

    @property
    def set_aside(self) -> tuple[Card, ...]:
        return cards_of(self._set_aside)

    @property
    def leader(self) -> int | None:
        """The leader given for a later deal of a match, or None for a first deal."""
        return self._leader

    @property
    def face_up_card(self) -> Card | None:
        """The card dealt face up (3 players, ``leftover: to-opening-holder``), or None."""
        return cards_of(self._face_up)[0] if self._face_up else None

    @property
    def face_up_seat(self) -> int | None:
        """The seat the face-up card was dealt to, or None."""
        if not self._face_up:
            return None
        return next(s for s, hand in enumerate(self._initial) if hand & self._face_up)

    @property
    def opening_card(self) -> Card | None:
        """The card the first play had to include (None when a leader was given)."""
        return cards_of(self._opening)[0] if self._opening else None

    @property
    def first_leader(self) -> int:
        """The seat that leads (or led) the first trick of the deal."""
        return self._first_leader

    @property
    def turn(self) -> int | None:
        return None if self._result is not None else self._f.turn

    @property
    def fast(self) -> FastState:
        """A copy of the deal as a ``FastState`` (every hand known), for searches and
        tests; the deal must not be over."""
        if self._result is not None:
            raise ValueError("the deal is over")
        return self._f.copy()

    @property
    def to_beat(self) -> Play | None:
        """The play the seat to move must beat; None when leading a trick."""
        f = self._f
        if f.beat_key < 0:
            return None
        return Play(f.beat_mask, f.beat_key, self._rules)

    @property
    def trick_leader(self) -> int:
        """The seat that led the current trick (or is about to lead it)."""
        return self._f.leader

    @property
    def last_player(self) -> int | None:
        """The seat whose play is ``to_beat`` (None when leading a trick)."""
        return self._f.last if self._f.beat_key >= 0 else None

    @property
    def passed(self) -> frozenset[int]:
        """Seats that passed in this trick: since the last play, or with
        ``pass_locks_out`` since the trick began (they are skipped until it ends)."""
        passed = self._f.passed
        return frozenset(s for s in range(self._n) if passed >> s & 1)

    @property
    def required_card(self) -> Card | None:
        """The card the very first play must include (None later or when a leader is given)."""
        required = self._f.required
        return cards_of(required)[0] if required else None

    @property
    def history(self) -> History:
        return tuple((seat, Move(mask)) for seat, mask in self._history)

    @property
    def seq(self) -> int:
        """Number of moves applied (the ``seq`` of the last move, moves numbered from 1)."""
        return len(self._history)

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> DealResult | None:
        return self._result

    @property
    def finished_order(self) -> tuple[int, ...]:
        """Seats that went out, in order (more than one only with ``play_out``)."""
        return tuple(self._finished)

    @property
    def in_play(self) -> frozenset[int]:
        """Seats still holding cards and playing (all but those gone out)."""
        active = self._f.active
        return frozenset(s for s in range(self._n) if active >> s & 1)

    @property
    def card_counts(self) -> tuple[int, ...]:
        return tuple(self._f.counts)

    @property
    def played_cards(self) -> tuple[Card, ...]:
        return cards_of(self._f.played)

    # ------------------------------------------------------------------ legal moves
    def legal_plays_fast(self) -> Plays:
        """Every legal play of the seat to move as ``(mask, key)`` pairs (no pass);
        the representation the AI and self-play use. Empty when the deal is over."""
        if self._result is not None:
            return []
        return self._f.legal_plays()

    def legal_moves(self) -> list[Move]:
        """Every distinct legal play (as a set of cards) of the seat to move, then pass
        when passing is allowed (not on lead)."""
        if self._result is not None:
            return []
        f = self._f
        moves = moves_from_plays(f.legal_plays())
        if f.beat_key >= 0:
            moves.append(PASS)
        return moves

    def is_legal(self, move: Move, seat: int | None = None) -> bool:
        try:
            self.check(move, seat)
        except EngineError:
            return False
        return True

    # ------------------------------------------------------------------- validation
    def check(self, move: Move, seat: int | None = None) -> None:
        """Raise the typed error for ``move`` by ``seat`` (default: the seat to move),
        codes in the order ``game_not_active``, ``not_your_turn``, then for a pass
        ``cannot_pass_on_lead``; for a play ``cards_not_in_hand``, ``not_a_combination``,
        ``must_include_opening_card``, ``wrong_size``, ``does_not_beat``."""
        self._check(move.mask, self.turn if seat is None else seat)

    def _check(self, mask: int, seat: int | None) -> int:
        """The checks of ``check``; returns the key of the play (-1 for a pass)."""
        if self._result is not None:
            raise IllegalMoveError("game_not_active", "the deal is over")
        f = self._f
        if seat != f.turn:
            raise IllegalMoveError("not_your_turn", f"it is seat {f.turn}'s turn", {"turn": f.turn})
        if not mask:
            if f.beat_key < 0:
                raise IllegalMoveError("cannot_pass_on_lead", "the leader of a trick may not pass")
            return -1
        missing = mask & ~f.hands[seat]
        if missing:
            names = [str(c) for c in cards_of(missing)]
            raise IllegalMoveError(
                "cards_not_in_hand", f"not in your hand: {' '.join(names)}", {"cards": names}
            )
        key = self._t.classify(mask)
        if key is None:
            raise InvalidMoveError(
                "not_a_combination",
                f"{mask_text(mask)} is not a single, pair, "
                + ("triple " if self._rules.triples else "")
                + "or five-card hand",
                {"cards": [str(c) for c in cards_of(mask)]},
            )
        if f.required and not mask & f.required:
            card = str(cards_of(f.required)[0])
            raise IllegalMoveError(
                "must_include_opening_card",
                f"the first play must include {card}",
                {"card": card},
            )
        if f.beat_key >= 0:
            beat = f.beat_key
            if key >> SIZE_SHIFT != beat >> SIZE_SHIFT:
                raise IllegalMoveError(
                    "wrong_size",
                    f"a {kind_of_key(beat)} must be answered with {beat >> SIZE_SHIFT} card(s)",
                    {"size": beat >> SIZE_SHIFT},
                )
            if key <= beat:
                raise IllegalMoveError(
                    "does_not_beat",
                    f"{mask_text(mask)} does not beat {mask_text(f.beat_mask)}",
                    {"to_beat": [str(c) for c in cards_of(f.beat_mask)]},
                )
        return key

    def validate(self, seat: int, action: str, cards: Sequence[object] | None = None) -> Move:
        """Parse raw client input and check it; return the Move or raise the typed error.

        Codes in order: ``game_not_active``, ``not_your_turn``; a pass:
        ``cannot_pass_on_lead``; a play: ``invalid_card``, ``duplicate_cards``,
        ``cards_not_in_hand``, ``not_a_combination`` (also for no cards),
        ``must_include_opening_card``, ``wrong_size``, ``does_not_beat``. An unknown
        action, or a pass that carries cards, is ``invalid_action``.
        """
        turn = self.turn
        if turn is None:
            raise IllegalMoveError("game_not_active", "the deal is over")
        if seat != turn:
            raise IllegalMoveError("not_your_turn", f"it is seat {turn}'s turn", {"turn": turn})
        if action == "pass":
            if cards:
                raise InvalidMoveError("invalid_action", "a pass carries no cards")
            self._check(0, seat)
            return PASS
        if action != "play":
            raise InvalidMoveError(
                "invalid_action", f"action must be 'play' or 'pass', not {action!r}"
            )
        if cards is None or isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
            raise InvalidMoveError("invalid_card", "cards must be a list of card strings")
        for card in cards:
            Card.parse(card)
        mask = cards_to_mask(cards)  # type: ignore[arg-type]
        if not mask:
            raise InvalidMoveError("not_a_combination", "a play needs at least one card")
        self._check(mask, seat)
        return Move(mask)

    # ---------------------------------------------------------------------- applying
    def apply(self, move: Move, seat: int | None = None) -> None:
        """Check ``move`` (by ``seat``, default the seat to move) and apply it."""
        key = self._check(move.mask, self.turn if seat is None else seat)
        self.push_fast(move.mask, key)

    def push_fast(self, mask: CardMask, key: PlayKey) -> None:
        """Apply a play ``(mask, key)`` from ``legal_plays_fast`` (or a pass: mask 0)
        by the seat to move, without checking it: ``FastState.push``, then the record
        and, when the mover went out, the score."""
        f = self._f
        seat = f.turn
        self._history.append((seat, mask))
        if f.push(mask, key) and not self._go_out(seat, mask):
            f.retire()

    def _go_out(self, seat: int, final_play: CardMask) -> bool:
        """``seat`` played its last card; returns True when the deal is over."""
        self._finished.append(seat)
        f = self._f
        if self._score is None:
            cards_left = list(f.counts)
            points = deal_points(self._rules, seat, final_play, cards_left, self._dealt)
            self._score = (seat, points, cards_left)
        still_in = f.active & ~(1 << seat)
        if self._rules.play_out and still_in & (still_in - 1):
            return False  # two or more still in: play on for places (``retire``)
        f.active = still_in
        winner, points, cards_left = self._score
        if self._rules.play_out:
            places = [*self._finished, still_in.bit_length() - 1]
        else:
            places = places_by_cards_left(winner, cards_left)
        self._result = DealResult(winner, points, places, cards_left)
        return True

    # ------------------------------------------------------------------------ views
    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: its own hand, counts and public information only."""
        if not 0 <= seat < self._n:
            raise ValueError(f"no seat {seat}")
        return PlayerView(
            seat=seat,
            rules=self._rules,
            num_players=self._n,
            hand=cards_of(self._f.hands[seat]),
            card_counts=self.card_counts,
            turn=self.turn,
            to_beat=self.to_beat,
            trick_leader=self._f.leader,
            last_player=self.last_player,
            passed=self.passed,
            in_play=self.in_play,
            required_card=self.required_card,
            history=self.history,
            played_cards=self.played_cards,
            finished_order=self.finished_order,
            seq=self.seq,
            is_over=self.is_over,
            result=self._result,
            face_up_card=self.face_up_card,
            face_up_seat=self.face_up_seat,
        )

    # ---------------------------------------------------------------- serialization
    def to_dict(self) -> dict[str, Any]:
        """Full information (every hand): for finished-deal replays and snapshots.

        The deal (rules, hands as dealt, set-aside cards, leader) and its moves are the
        source of truth; ``state`` is derived from them, for convenience.
        """
        return {
            "rules": self._rules.to_dict(),
            "hands": [[str(c) for c in cards_of(h)] for h in self._initial],
            "set_aside": [str(c) for c in cards_of(self._set_aside)],
            "leader": self._leader,
            **({"face_up": str(self.face_up_card)} if self._face_up else {}),
            "moves": [move_entry(seat, Move(mask)) for seat, mask in self._history],
            "state": {
                "hands": [[str(c) for c in cards_of(h)] for h in self._f.hands],
                **public_fields(self),
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DealState:
        """Rebuild a state from ``to_dict`` by replaying its moves (``state`` is ignored)."""
        state = cls.new(
            Rules.from_dict(data["rules"]),
            data["hands"],
            leader=data.get("leader"),
            set_aside=data.get("set_aside", ()),
            face_up=data.get("face_up"),
        )
        for entry in data.get("moves", ()):
            if entry.get("pass"):
                state.apply(PASS, entry["seat"])
            else:
                state.apply(Move.play(entry["play"]), entry["seat"])
        return state

    def __repr__(self) -> str:
        status = "over" if self._result is not None else f"turn={self._f.turn}"
        f = self._f
        return (
            f"<DealState {self._rules!r} players={self._n} seq={self.seq} {status} "
            f"to_beat={mask_text(f.beat_mask) if f.beat_key >= 0 else None!r}>"
        )


@dataclass(frozen=True)
class PlayerView:
    """What one seat may know: its own hand and public information, nothing else.

    Built from a state by ``DealState.view(seat)``; it holds no other hand, so it cannot
    leak one. Bots are functions of a PlayerView.
    """

    seat: int
    rules: Rules
    num_players: int
    hand: tuple[Card, ...]
    card_counts: tuple[int, ...]
    turn: int | None
    to_beat: Play | None
    trick_leader: int
    last_player: int | None
    passed: frozenset[int]
    in_play: frozenset[int]
    required_card: Card | None
    history: History
    played_cards: tuple[Card, ...]
    finished_order: tuple[int, ...]
    seq: int
    is_over: bool
    result: DealResult | None
    # 3 players, ``leftover: to-opening-holder``: the 52nd card, dealt face up, and who
    # holds it (public: every seat saw it dealt).
    face_up_card: Card | None = None
    face_up_seat: int | None = None
    # In a game of several deals, where the match stands (public: every seat sees the
    # scores); the service that builds the view adds it (``with_match``), a bare deal
    # has none.
    match: MatchStanding | None = None

    def with_match(self, standing: MatchStanding | None) -> PlayerView:
        return replace(self, match=standing)

    @property
    def is_my_turn(self) -> bool:
        return self.turn == self.seat

    @property
    def hand_mask(self) -> int:
        """The hand as a card mask (bit ``card.index``)."""
        return mask_of(self.hand)

    def legal_plays_fast(self) -> Plays:
        """``(mask, key)`` pairs of the legal plays (no pass); empty when not my turn."""
        if self.turn != self.seat:
            return []
        beat_key = -1 if self.to_beat is None else self.to_beat.key
        required = 0 if self.required_card is None else self.required_card.mask
        return legal_plays(tables_for(self.rules), self.hand_mask, beat_key, required)

    def legal_moves(self) -> list[Move]:
        """The same answer as ``DealState.legal_moves`` for this seat on its turn."""
        if self.turn != self.seat:
            return []
        moves = moves_from_plays(self.legal_plays_fast())
        if self.to_beat is not None:
            moves.append(PASS)
        return moves

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "num_players": self.num_players,
            "hand": [str(c) for c in self.hand],
            **public_fields(self),
            "history": [move_entry(seat, move) for seat, move in self.history],
            "legal_moves": [move.to_dict() for move in self.legal_moves()],
            "match": None if self.match is None else self.match.to_dict(),
        }
