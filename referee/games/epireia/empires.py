"""Negotiations with the empires."""

from __future__ import annotations

from .contests import send_home, single_roll
from .economy import add_prestige, give_token
from .position import Position
from .resources import gain, worded


def empire_targets(st: Position, empire: str) -> list[int]:
    targets = st.t.empires[empire]["targets"]
    for source in (st.all_constraints(), st.augur_effect()):
        targets = source.get("empire_targets", {}).get(empire, targets)
    return list(targets)


def empire_bonus(st: Position, seat: str, figure: str, empire: str) -> int:
    bonus = sum(st.t.buildings[b]["effect"].get("empire_bonus", 0) for b in st.player(seat)["buildings"])
    ability = st.t.ability(figure).get("empire_bonus")
    if ability and empire in ability.get("empires", [empire]):
        bonus += ability["amount"]
    return bonus


def resolve_empire(st: Position, empire: str) -> None:
    present = st.occupants(empire)
    if not present:
        return
    spec = st.t.empires[empire]
    target = empire_targets(st, empire)[0 if len(present) == 1 else 1]
    for league in st.t.data["empire_roll_order"]:
        for seat, figure in present:
            if seat == "enemy" or st.league_of(seat) != league:
                continue
            bonus = empire_bonus(st, seat, figure, empire)
            value = single_roll(st, seat, lambda v, b=bonus: v + b >= target,
                                f"{spec['name']} needs {target - bonus}")
            ok = value + bonus >= target
            st.emit("empire", "{} negotiates at {} with {}: {} + {} against {}: {}",
                    {"seat": seat, "empire": empire, "roll": value, "bonus": bonus,
                     "target": target, "success": ok},
                    args=(st.name(seat), spec["name"], st.t.figures[figure]["name"], value, bonus,
                          target, "success" if ok else "failure"))
            if ok:
                empire_reward(st, seat, spec)
    send_home(st, present)


def empire_reward(st: Position, seat: str, spec: dict) -> None:
    reward = spec["reward"]
    goods = {r: n for r, n in reward.items() if r in st.t.resources}
    gain(st, seat, goods)
    st.emit("reward", worded, {"seat": seat},
            args=("{} receives {} from {}", st.name(seat), goods, spec["name"]))
    league = st.league_of(seat)
    st.g["leagues"][league]["counters"]["empires"] += 1
    if st.g["solo"]:
        st.g["solo"]["empire_successes"] += 1
    if reward.get("token"):
        give_token(st, league, reward["token"], seat, spec["name"])
    if reward.get("prestige"):
        add_prestige(st, seat, reward["prestige"], spec["name"])
