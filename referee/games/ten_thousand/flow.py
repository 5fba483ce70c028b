"""The turn sequence: leaders at setup, then the 16 phases of each player's turn.

A state machine with named steps.  `advance` runs automatic steps until some
seat must decide; `answer` applies a decision taken outside a roll window
(leader, an optional roll such as foraging, hand-limit discard).
"""

from __future__ import annotations

from ...engine import IllegalAction
from ...rng import roll_die
from . import rolls
from .army import Army, Turn
from .deck import draw
from .position import Position


def advance(state: Position) -> None:
    """Run the game on until a seat must decide or the game is over."""
    while state.asking is None and state.step != "over":
        step = state.step   # most often a window just answered
        if step == "window":
            rolls.ask_next(state)
        elif step == "leader":
            leader_step(state)
        else:
            phase_step(state)


def answer(state: Position, seat: str, action: str) -> None:
    word, _, arg = action.partition(" ")
    if state.step == "leader" and word == "leader":
        take_leader(state, seat, arg)
    elif state.step == "choose":
        state.turn.chosen = True
        table = state.rules.tables[state.rules.phases[state.turn.phase]["table"]]
        if word != "skip":
            state.turn.flags.extend(table.choice_flags)
            state.emit("choice", "{} chooses to {}", (seat, table.id), choice_data)
            state.step = "phase"
        else:
            state.emit("choice", "{} does not {}", (seat, table.id), choice_data)
            next_phase(state)
    elif state.step == "discard" and word == "discard":
        number = int(arg)
        state.armies[seat].hand.remove(number)
        state.discard.append(number)
        name = state.rules.cards[number].name
        state.emit("discard", "{} discards {} to the hand limit", (seat, name),
                   {"seat": seat, "card": number})
        state.step = "phase"
    else:  # pragma: no cover - apply() already checked the action is legal
        raise IllegalAction(action)


def choice_data(seat: str, table: str) -> dict[str, str]:
    return {"seat": seat, "table": table}


def seat_data(seat: str, *_: object) -> dict[str, str]:
    """The data of an event that names only its seat (the first of its args)."""
    return {"seat": seat}


# ----- setup --------------------------------------------------------------------------
def roll_for_first(state: Position) -> str:
    """Everyone rolls a die; the highest goes first, ties roll again."""
    rng = state.rngs["setup"]
    contenders = list(state.seats)
    while len(contenders) > 1:
        rolled = {seat: roll_die(rng, 6) for seat in contenders}
        best = max(rolled.values())
        contenders = [seat for seat in contenders if rolled[seat] == best]
    return contenders[0]


def leader_step(state: Position) -> None:
    if not state.leader_queue:
        state.step = "phase"
        start_turn(state, state.order[0])
        return
    seat = state.leader_queue[0]
    taken = {a.leader for a in state.armies.values()}
    free = [lead.id for lead in state.rules.leaders if lead.id not in taken]
    if len(free) >= 2:
        state.ask(seat, "Choose your leader", [f"leader {lid}" for lid in free])
    else:
        take_leader(state, seat, free[0] if free else state.rules.unnamed.id)


def take_leader(state: Position, seat: str, leader_id: str) -> None:
    state.armies[seat].leader = leader_id
    state.leader_queue.pop(0)
    name = state.rules.leader_by_id[leader_id].name
    state.emit("leader", "{} is led by {}", (seat, name), {"seat": seat, "leader": leader_id})


# ----- the turn ---------------------------------------------------------------------------
def start_turn(state: Position, seat: str) -> None:
    army = state.armies[seat]
    leader = state.leader(seat)
    holders = state.card_holders()
    i = holders.index(seat)
    state.turn = Turn(seat=seat, start_space=army.space, rerolls_left=leader.rerolls_per_turn,
                      adjusts_left=leader.adjusts_per_turn, order=holders[i:] + holders[:i])
    if army.next_turn_flags:   # what last turn left for this one (Harsh weather)
        state.turn.flags.extend(army.next_turn_flags)
        army.next_turn_flags = []
    state.emit("turn", "turn {}: {} marches from space {} with {} men",
               (state.round, seat, army.space, army.men), turn_data)
    rolls.force_token_cards(state, seat)


def turn_data(round: int, seat: str, space: int, men: int) -> dict[str, object]:
    return {"seat": seat, "round": round}


def next_phase(state: Position) -> None:
    state.turn.next_phase()
    state.step = "phase"


def phase_step(state: Position) -> None:
    """Play the current turn's phases on until a seat must decide or the turn ends.

    Phases that need nobody (a draw, a roll no one can change, a phase whose
    condition fails) follow one another in this loop.
    """
    turn = state.turn
    army = state.armies[turn.seat]
    plan = state.rules.phase_plan
    flags, tokens = turn.flags, army.tokens
    while state.step == "phase":
        if army.arrived is not None or army.destroyed:   # off the march (Army.marching)
            finish_turn(state)
            return
        kind, table = plan[turn.phase]
        if kind == "roll":   # most phases
            flag, token = table.only_flag, table.only_token
            if ((flag and flag not in flags) or (token and tokens[token] <= 0)
                    or turn.rolls_left <= 0):
                # not due this turn (no satrap met, no anger ...), or done: Turn.next_phase,
                # inline for the phases most turns skip
                turn.phase += 1
                turn.rolls_left = 1
                turn.chosen = False
            elif table.optional and not turn.chosen:
                state.step = "choose"
                state.ask(turn.seat, "{} this turn?", [table.id, "skip"],
                          (table.id.capitalize(),))
            else:
                rolls.open_roll(state, table)
        elif kind == "draw":
            draw(state, turn.seat, state.rules.draw_per_turn)
            rolls.force_own_token_cards(state, turn.seat)
            turn.next_phase()
        elif kind == "consumption":
            consume(state, turn.seat)
            turn.next_phase()
        else:  # end
            end_phase(state)
            return


def consume(state: Position, seat: str) -> None:
    """Eat one food token (clearing starvation), or starve a little more."""
    army = state.armies[seat]
    tokens = army.tokens
    rule = state.rules.consumption
    eat = rule["eat"]
    for food, n in eat.items():
        if tokens[food] < n:   # not enough to eat
            gains = rule["hungry_gains"]
            for token, gained in gains.items():
                army.gain(token, gained)
            # "p1 has no food: 2 starvation tokens", in the data's token words
            counts = ", ".join(f"{tokens[token]} {token} tokens" for token in gains)
            state.emit("consume", "{} has no {}: {}", (seat, food, counts), seat_data)
            return
    for token in rule["fed_discards"]:
        tokens[token] = 0
    for token, n in eat.items():
        army.gain(token, -n)
    left = ", ".join(f"{tokens[token]} {token}" for token in eat)   # "1 food"
    state.emit("consume", "{} eats; {} left", (seat, left), seat_data)


def end_phase(state: Position) -> None:
    seat = state.turn.seat
    hand = state.armies[seat].hand
    limit = state.hand_limit(seat)
    if len(hand) > limit:
        state.step = "discard"
        discard = state.rules.discard_action
        state.ask(seat, "Hand limit {}: discard a card",
                  [discard[n] for n in sorted(set(hand))], (limit,))
        return
    finish_turn(state)


def leave_the_march(state: Position, army: Army) -> None:
    """An army that arrives or is destroyed discards its hand (X-10).

    Under the option `finished_play_penalising` an arrived army keeps its
    penalising cards, which it must still play on the others at their chance.
    """
    keep = []
    if army.arrived is not None and state.options.get("finished_play_penalising"):
        keep = [n for n in army.hand if state.rules.cards[n].penalising]
    gone = [n for n in army.hand if n not in keep]
    state.discard.extend(gone)
    state.face_down.setdefault(army.seat, []).extend(gone)   # discarded unseen
    army.hand = keep


def finish_turn(state: Position) -> None:
    """Close the turn, pass to the next marching player, move the time pawn."""
    turn = state.turn
    army = state.armies[turn.seat]
    if not army.marching and army.hand:
        leave_the_march(state, army)
    state.turn = None
    order = state.order
    armies = state.armies
    for seat in order[order.index(turn.seat) + 1:]:   # the next marching army this round
        if armies[seat].marching:
            start_turn(state, seat)
            state.step = "phase"
            return
    remaining = state.marching()
    if not remaining:
        state.step = "over"
        state.emit("end", "every army has reached the sea or been destroyed", (), {})
        return
    state.round += 1
    state.emit("time", "the time pawn moves to space {}", (state.round,), {"round": state.round})
    start_turn(state, remaining[0])
    state.step = "phase"
