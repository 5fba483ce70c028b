"""Roll windows: throw the dice, let cards and leaders change the roll, apply the table.

A window opens after the dice show (reference X-06.1).  Penalising cards that
fit are played at once by the engine (X-07); then the roller and the others
round the table are asked in turn, but only seats that hold something playable.
The window shuts when every seat in a row has passed; a reroll throws the dice
again and starts the round anew.  Most rolls find nobody able to act (no fitting
card in any hand, the roller's leader spent): those stand at once, with the same
events, and no window is opened for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine import Decision, Event
from ...rng import roll_die
from .army import Window, modified_total
from .cards import card_actions
from .deck import draw
from .position import Position
from .rules import Card, CardOption, RollCards, RowEffect, Table


def standing_modifiers(state: Position, table: Table) -> list[list]:
    """The table's own modifiers that apply now, plus the roller's leader's."""
    turn = state.turn
    army = state.armies[turn.seat]
    tokens, flags, rows = army.tokens, turn.flags, turn.rows
    out = []
    for mod in table.standing:
        when = mod.when   # the kinds in the order the shipped tables use them most
        if when == "flag":
            if mod.flag in flags and mod.value:
                out.append([mod.label, mod.value])
            continue
        if when == "column":
            index = rows.get(mod.table)
            value = 0 if index is None else mod.columns[index]
        elif when == "has_token":
            value = mod.value if tokens[mod.token] > 0 else 0
        elif when == "space_at_most":
            value = mod.value if turn.start_space <= mod.space else 0
        elif when == "per_token":
            value = mod.value * tokens[mod.token]
        else:  # always
            value = mod.value
        if value:
            out.append([mod.label, value])
    if table.leader_bonus:   # a leader's power modifies this roll (most rolls: none)
        bonus = table.leader_bonus.get(army.leader)
        if bonus:
            out.append(list(bonus))
    return out


def throw(state: Position, seat: str, count: int) -> list[int]:
    rng = state.rngs[state.dice_streams[seat]]
    if count == 1:   # most tables roll one die: spare the loop
        return [roll_die(rng, 6)]
    return [roll_die(rng, 6) for _ in range(count)]


def open_roll(state: Position, table: Table) -> None:
    turn = state.turn
    roller = turn.seat
    if table.dice == 1:   # `throw`, inline for the tables that roll one die
        dice = [roll_die(state.rngs[state.dice_streams[roller]], 6)]
    else:
        dice = throw(state, roller, table.dice)
    mods = standing_modifiers(state, table) if table.modified else []
    cards = table.cards
    # nobody can act when the roller's leader is spent and no seat holds a card for this
    # roll: a quick, cautious test (it ignores which tokens a card would remove); when a
    # window opens, `ask_next` asks only the seats that can act
    unasked = turn.rerolls_left <= 0 and turn.adjusts_left <= 0
    if unasked:
        armies = state.armies
        held = cards.roller_cards   # the roller comes first in the turn's order
        for seat in turn.order:
            if not held.isdisjoint(armies[seat].hand):
                unasked = False
                break
            held = cards.others_cards
    if not state.silent:   # every roll is announced: built here, not through `emit`, for speed
        # a list of dice is never changed (a reroll throws a new one), nor are the
        # modifiers of a roll with no window: they are shared, the others copied
        state.events.append(Event("roll", roll_text, roll_data, None, (
            roller, "rolls", table, dice, mods if unasked else tuple(mods))))
    if unasked:
        # most rolls: no window to open, no seat to ask; the result stands as thrown
        settle(state, table, roller, dice, mods)
        return
    state.window = Window(roller, table.id, dice, mods, turn.order)   # never changed: shared
    state.step = "window"
    if cards.forced:   # a penalising card hits this roll
        force_cards(state, table, cards)
    ask_next(state)


def roll_text(roller: str, verb: str, table: Table, dice: list[int],
              mods: Sequence[list]) -> str:
    """'p1 rolls the Route Roll: 3+5, Leader +1'."""
    shown = "".join(f", {label} {value:+d}" for label, value in mods)
    return f"{roller} {verb} {table.roll_name}: {'+'.join(map(str, dice))}{shown}"


def roll_data(roller: str, verb: str, table: Table, dice: list[int],
              mods: Sequence[list]) -> dict[str, Any]:
    # a copy: the dice are the roll's own list, which an event's reader may edit
    return {"seat": roller, "table": table.id, "dice": list(dice)}


def force_cards(state: Position, table: Table, cards: RollCards) -> None:
    """Penalising cards that fit this roll must be played now (X-07)."""
    forced = cards.forced
    w = state.window
    opponents_only = state.opponents_only
    armies = state.armies
    for seat in w.order:
        if opponents_only and seat == w.roller:
            continue
        army = armies[seat]
        if cards.forced_cards.isdisjoint(army.hand):
            continue
        for number in [n for n in army.hand if n in forced]:
            card = state.rules.cards[number]
            opt = forced[number]
            army.hand.remove(number)
            state.discard.append(number)
            w.mods.append([card.name, opt.amount])
            state.emit("card", "{} must play {.name} on {}'s {.roll_name}: {:+d}",
                       (seat, card, w.roller, table, opt.amount), forced_card_data)


def forced_card_data(seat: str, card: Card, target: str, *_: Any) -> dict[str, Any]:
    """The data of a penalising card played on `target`, on a roll or at a turn's start."""
    return {"seat": seat, "target": target, "card": card.number, "forced": True}


def seat_actions(state: Position, seat: str) -> list[str]:
    """What `seat` may do in the open window (nothing: an empty list)."""
    w = state.window
    cards = state.rules.tables[w.table].cards
    if seat == w.roller:
        return roller_actions(state, seat, cards)
    return card_actions(state.armies[seat], cards.others)


def roller_actions(state: Position, seat: str, cards: RollCards) -> list[str]:
    """The roller's cards, then its leader's power while unspent this turn."""
    actions = card_actions(state.armies[seat], cards.own)
    turn = state.turn
    if turn.rerolls_left > 0:
        actions.append("leader reroll")
    if turn.adjusts_left > 0:
        actions += state.leader(seat).adjust_actions
    return actions


def ask_next(state: Position) -> None:
    """Ask the next seat that can act, or shut the window and apply the roll."""
    w = state.window
    order = w.order
    seats = len(order)
    if w.passes < seats:
        table = state.rules.tables[w.table]
        cards = table.cards
        others = cards.others_playable
        armies = state.armies
        roller = w.roller
        while w.passes < seats:
            seat = order[w.pos]
            if seat == roller:
                actions = roller_actions(state, seat, cards)
            elif others.isdisjoint(armies[seat].hand):   # the others can rarely act
                actions = None
            else:
                actions = card_actions(armies[seat], cards.others)
            if actions:
                actions.append("pass")
                state.asking = Decision(seat, window_prompt, actions,   # `ask`, inline
                                        (roller, table, w.dice, tuple(w.mods)))
                return
            w.passes += 1
            w.pos = (w.pos + 1) % seats
    # everyone has passed: shut the window and apply the roll
    state.window = None
    settle(state, state.rules.tables[w.table], w.roller, w.dice, w.mods)


def window_prompt(roller: str, table: Table, dice: list[int], mods: tuple[list, ...]) -> str:
    """"p1's Route Roll shows 9: play a card or pass" (the total added up when read)."""
    return f"{roller}'s {table.roll_name} shows {modified_total(dice, mods)}: play a card or pass"


def answer(state: Position, seat: str, action: str) -> None:
    w = state.window
    if action == "pass":
        w.passes += 1
        w.pos = (w.pos + 1) % len(w.order)
        return
    play = state.rules.card_plays.get(action)
    if play is None:   # `leader reroll`, `leader +1` ...
        use_leader(state, seat, action.partition(" ")[2])
    else:
        play_card(state, seat, *play)
    w.passes = 0
    table = state.rules.tables[w.table]
    if table.cards.forced:
        force_cards(state, table, table.cards)


def use_leader(state: Position, seat: str, arg: str) -> None:
    leader = state.leader(seat)
    if arg == "reroll":
        state.turn.rerolls_left -= 1
        state.emit("leader", "{} orders a reroll", (leader.name,), {"seat": seat})
        reroll(state)
    else:
        state.turn.adjusts_left -= 1
        state.window.mods.append([leader.name, int(arg)])
        state.emit("leader", "{} adjusts the roll by {}", (leader.name, arg), {"seat": seat})


def reroll(state: Position) -> None:
    w = state.window
    w.dice = throw(state, w.roller, len(w.dice))
    w.pos = 0
    state.emit("roll", roll_text, (w.roller, "rerolls", state.rules.tables[w.table], w.dice,
                                   tuple(w.mods)), roll_data)


def play_card(state: Position, seat: str, card: Card, opt: CardOption) -> None:
    army = state.armies[seat]
    number = card.number
    army.hand.remove(number)
    state.discard.append(number)
    w = state.window
    state.emit("card", "{} plays {.name} ({})", (seat, card, opt.label, w.roller), played_data)
    if opt.effect == "modify":
        w.mods.append([card.name, opt.amount])
    elif opt.effect == "reroll":
        reroll(state)
    elif opt.effect == "extra_roll":
        state.turn.rolls_left += 1
    elif opt.effect == "tokens":
        for token, amount in opt.tokens:
            army.gain(token, amount)
    else:  # draw
        draw(state, seat, opt.count)
        force_own_token_cards(state, seat)


def played_data(seat: str, card: Card, label: str, target: str) -> dict[str, Any]:
    return {"seat": seat, "card": card.number, "option": label, "target": target}


# ----- penalising token cards ------------------------------------------------------------
def force_token_cards(state: Position, victim: str) -> None:
    """Penalising token cards fire at the start of another player's turn (X-06.3, X-07).

    The holder is spared while another army still marches; alone on the march
    (solo, or the last army left) it is their only victim, unless the option
    keeps penalising cards for opponents.
    """
    spare_victim = state.opponents_only or any(
        army.marching for seat, army in state.armies.items() if seat != victim)
    forced = state.rules.forced_tokens
    forced_cards = state.rules.forced_token_cards
    order = state.order
    start = order.index(victim)
    for holder in order[start:] + order[:start]:
        if holder == victim and spare_victim:
            continue
        army = state.armies[holder]   # finished armies hold cards only under X-10's option
        if forced_cards.isdisjoint(army.hand):
            continue
        for number in [n for n in army.hand if n in forced]:
            opt = forced[number]
            army.hand.remove(number)
            state.discard.append(number)
            apply_tokens(state, victim, opt.tokens)
            state.emit("card", "{} must play {.name} on {}: {}",
                       (holder, state.rules.cards[number], victim, opt.label),
                       forced_card_data)


def force_own_token_cards(state: Position, seat: str) -> None:
    """Cards just drawn in `seat`'s own turn: alone on the march, its penalising token
    cards hit it at once, their first chance (X-07), not at the start of its next turn."""
    if not state.rules.forced_token_cards.isdisjoint(state.armies[seat].hand):
        force_token_cards(state, seat)


def apply_tokens(state: Position, seat: str, tokens: tuple[tuple[str, int], ...]) -> None:
    army = state.armies[seat]
    for token, amount in tokens:
        army.gain(token, amount)


# ----- applying the result --------------------------------------------------------------
def settle(state: Position, table: Table, seat: str, dice: list[int], mods: list[list]) -> None:
    """Apply the table's result for the dice and modifiers, and count the roll done."""
    total = sum(dice)   # modified_total, inline on the path of every roll
    for _, value in mods:
        total += value
    if table.outcome == "rows":
        index = table.row_of.get(total)
        if index is None:   # modified far off the table
            index = table.scan_row(total)
        state.turn.rows[table.id] = index
        apply_row(state, seat, table.row_effects[index], table, total)
    elif table.outcome == "attack":
        hit = table.hits(state.armies[seat].tokens[table.only_token], total)
        apply_row(state, seat, table.hit_effect if hit else table.miss_effect, table, total)
    elif table.outcome == "loss":
        lost = max(0, total) * table.men_per_point
        state.emit("result", "{} {.roll_name} {}: loses {} men", (seat, table, total, lost),
                   loss_data)
        lose_men(state, seat, lost)
    else:  # move
        move(state, seat, max(0, total), table, total)
    turn = state.turn
    turn.rolls_left -= 1
    state.step = "phase"
    if turn.rolls_left <= 0:   # the phase is over: straight on to the next one
        turn.phase += 1   # Turn.next_phase, inline on the path of every roll
        turn.rolls_left = 1
        turn.chosen = False


def apply_row(state: Position, seat: str, row: RowEffect, table: Table, total: int) -> None:
    """The row rolled on `table`: tokens, turn flags, lost men."""
    tokens = state.armies[seat].tokens
    for token in row.discard_all:
        tokens[token] = 0
    for token, n in row.tokens:   # Army.gain, inline: counts never go below zero
        tokens[token] = max(0, tokens[token] + n)
    if row.flags:
        state.turn.flags.extend(row.flags)
    if row.next_turn_flags:   # remembered by the army for its next turn (Harsh weather)
        state.armies[seat].next_turn_flags.extend(row.next_turn_flags)
    loss = row.lose_men
    if row.loss_dice:
        dice, add, times = row.loss_dice
        loss = (sum(throw(state, seat, dice)) + add) * times
    if loss:
        state.emit("result", "{} {.roll_name} {}: {}, loses {} men",
                   (seat, table, total, row.result, loss), row_data)
        lose_men(state, seat, loss)
    elif not state.silent:   # most rows: built here, as `announce` does, for speed
        state.events.append(Event("result", "{} {.roll_name} {}: {}", row_data, None,
                                  (seat, table, total, row.result)))


def row_data(seat: str, table: Table, total: int, result: str, men: int = 0) -> dict[str, Any]:
    return {"seat": seat, "table": table.id, "total": total, "result": result, "men": -men}


def loss_data(seat: str, table: Table, total: int, men: int) -> dict[str, Any]:
    return {"seat": seat, "table": table.id, "total": total, "men": -men}


def lose_men(state: Position, seat: str, men: int) -> None:
    """Men never drop below zero; an army at zero is destroyed (X-11)."""
    army = state.armies[seat]
    army.men = max(0, army.men - men)
    if army.men == 0 and not army.destroyed:
        army.destroyed = True
        state.emit("destroyed", "{}'s army is wiped out", (seat,), {"seat": seat})


def move(state: Position, seat: str, steps: int, table: Table, total: int) -> None:
    """March `steps` spaces after a roll on `table` came to `total`."""
    army = state.armies[seat]
    finish = state.rules.distance["finish"]
    army.space = min(finish, army.space + steps)
    state.emit("move", "{} {.roll_name} {}: marches {} spaces to space {}",
               (seat, table, total, steps, army.space), move_data)
    if army.space >= finish:
        army.arrived = state.round
        army.arrival_seq = state.arrivals
        state.arrivals += 1
        state.emit("arrive", "{} reaches {} with {} men after {} turns",
                   (seat, state.rules.distance["finish_name"], army.men, state.round),
                   {"seat": seat, "turns": state.round})


def move_data(seat: str, table: Table, total: int, steps: int, space: int) -> dict[str, Any]:
    return {"seat": seat, "table": "travel", "space": space}
