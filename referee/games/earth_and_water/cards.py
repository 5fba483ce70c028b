"""Card events played on one's own turn: `ok_<effect>` says whether the event
may be played now, `ev_<effect>` resolves it.  Reactions live in battle.py and
movement.py; Sudden Death in prep.py.
"""

from __future__ import annotations

from .core import Core, count_of
from .tables import GREECE, PERSIA


class CardEvents(Core):
    """Steps `remove`, `remove_fleet`, `leo_pay`, `syracuse`, `tribute`, `molon`,
    `royal_road`, `hippias`, `defection`, `pacification`."""

    # -- Greek events --------------------------------------------------------------------------

    def ok_mines_of_laurion(self, side: int) -> bool:
        return True

    def ev_mines_of_laurion(self, side: int, num: int) -> None:
        self.start_buy(GREECE, self.t.param(GREECE, "mines_of_laurion", "budget", 3), mines=True)

    def ok_ionian_revolt(self, side: int) -> bool:
        arm = self.arm[PERSIA]
        return any(arm[c] for c in self.t.majors[PERSIA])

    def ev_ionian_revolt(self, side: int, num: int) -> None:
        self.ev_city = -2   # remove from Persian majors only
        self.step, self.actor = "remove", GREECE

    def ok_desertion(self, side: int) -> bool:
        return any(self.arm[PERSIA])

    def ev_desertion(self, side: int, num: int) -> None:
        self.ev_city = -1
        self.step, self.actor = "remove", GREECE

    def legal_remove(self) -> list[str]:
        arm = self.arm[PERSIA]
        cities = self.t.majors[PERSIA] if self.ev_city == -2 else range(self.t.ncity)
        return [self.t.s_remove[c] for c in cities if arm[c]]

    def do_remove(self, args: list[str]) -> None:
        self.arm[PERSIA][self.t.index[args[1]]] -= 1
        self.res_arm[PERSIA] += 1
        self.log("remove", "A Persian army in {} is removed", (args[1],))
        self.finish_action()

    def ok_wrath_of_poseidon(self, side: int) -> bool:
        return any(self.flt[PERSIA])

    def ev_wrath_of_poseidon(self, side: int, num: int) -> None:
        self.step, self.actor = "remove_fleet", GREECE

    def legal_remove_fleet(self) -> list[str]:
        flt = self.flt[PERSIA]
        return [self.t.s_remove[c] for c in self.t.ports if flt[c]]

    def do_remove_fleet(self, args: list[str]) -> None:
        self.flt[PERSIA][self.t.index[args[1]]] -= 1
        self.res_flt[PERSIA] += 1
        self.log("remove", "A Persian fleet at {} is removed", (args[1],))
        self.finish_action()

    def ok_oracle(self, side: int) -> bool:
        return True

    def ev_oracle(self, side: int, num: int) -> None:
        hand = self.hands[GREECE]
        count = len(hand)
        self.discard[0:0] = hand   # face down under the pile: the Oracle stays on top
        self.unseen[PERSIA].extend(hand)
        self.log("discard", "Greece discards {}: {}", (count_of(count, "card"), sorted(hand)),
                 to=GREECE)
        self.log("discard", "Greece discards {}", (count_of(count, "card"),), to=PERSIA,
                 data={"count": count})
        hand.clear()
        self.draw(GREECE, count + self.t.param(GREECE, "oracle", "extra_draw", 1))
        self.finish_action()

    def leonidas_payments(self) -> list[int]:
        """Cities an army may be taken from so that a Leonidas march remains."""
        origins = self.land_origins(GREECE)
        arm = self.arm[GREECE]
        return [c for c in range(self.t.ncity) if arm[c]
                and any(o != c or arm[o] >= 2 for o in origins)]

    def ok_leonidas(self, side: int) -> bool:
        if not self.can_march(GREECE):
            return False
        return bool(self.res_arm[GREECE] or self.leonidas_payments())

    def ev_leonidas(self, side: int, num: int) -> None:
        self.once_used.append("leonidas")
        if self.res_arm[GREECE]:
            self.res_arm[GREECE] -= 1
            self.leonidas_march()
        else:
            self.step, self.actor = "leo_pay", GREECE

    def legal_leo_pay(self) -> list[str]:
        return [self.t.s_sacrifice[c] for c in self.leonidas_payments()]

    def do_leo_pay(self, args: list[str]) -> None:
        self.arm[GREECE][self.t.index[args[1]]] -= 1
        self.log("sacrifice", "Greece takes an army from {} for Leonidas", (args[1],))
        self.leonidas_march()

    def leonidas_march(self) -> None:
        self.stack.append("end_turn")
        self.begin_move(GREECE, "leonidas")

    def ok_evangelion(self, side: int) -> bool:
        return self.can_march(GREECE)

    def ev_evangelion(self, side: int, num: int) -> None:
        self.op_event = "evangelion"
        self.stack.append("end_turn")
        self.begin_move(GREECE, "land")

    def ok_melas_zomos(self, side: int) -> bool:
        return self.res_arm[GREECE] > 0 and self.controls(GREECE, self.t.melas_city)

    def ev_melas_zomos(self, side: int, num: int) -> None:
        city = self.t.melas_city
        self.res_arm[GREECE] -= 1
        self.arm[GREECE][city] += 1
        self.log("place", "A Greek army joins {}", (self.t.names[city],))
        self.finish_action()

    def ok_triremes(self, side: int) -> bool:
        return any(self.flt[GREECE])

    def ev_triremes(self, side: int, num: int) -> None:
        self.moves_left = self.t.param(GREECE, "triremes", "moves", 2) - 1
        self.stack += ["end_turn", "fleet_again"]
        self.begin_move(GREECE, "fleet")

    def k_fleet_again(self) -> None:
        if self.moves_left > 0 and any(self.flt[GREECE]):
            self.moves_left -= 1
            self.stack.append("fleet_again")
            self.begin_move(GREECE, "fleet")
        else:
            self.moves_left = 0
            self.resume()

    def syracuse_ports(self) -> list[int]:
        pf = self.flt[PERSIA]
        return [p for p in self.t.ports if not pf[p] and self.controls(GREECE, p)]

    def ok_syracuse(self, side: int) -> bool:
        return self.res_flt[GREECE] > 0 and bool(self.syracuse_ports())

    def ev_syracuse(self, side: int, num: int) -> None:
        self.step, self.actor = "syracuse", GREECE

    def legal_syracuse(self) -> list[str]:
        return [self.t.s_place_fleet[p] for p in self.syracuse_ports()]

    def do_syracuse(self, args: list[str]) -> None:
        self.flt[GREECE][self.t.index[args[1]]] += 1
        self.res_flt[GREECE] -= 1
        self.log("place", "A Greek fleet from Syracuse arrives at {}", (args[1],))
        if not self.res_flt[GREECE]:
            self.finish_action()

    # -- Persian events ---------------------------------------------------------------------------

    def ok_cavalry(self, side: int) -> bool:
        return self.can_march(PERSIA)

    def ev_cavalry(self, side: int, num: int) -> None:
        self.cavalry = True
        self.stack.append("end_turn")
        self.begin_move(PERSIA, "land")

    def ok_great_king(self, side: int) -> bool:
        return self.can_march(PERSIA)

    def ev_great_king(self, side: int, num: int) -> None:
        self.op_event = "great_king"
        self.stack.append("end_turn")
        self.begin_move(PERSIA, "land")

    def tribute_targets(self) -> list[int]:
        t = self.t
        pa, ga = self.arm
        return [c for c in range(t.ncity) if t.major[c] < 0 and not pa[c] and not ga[c]]

    def ok_tribute(self, side: int) -> bool:
        return self.res_arm[PERSIA] > 0 and bool(self.tribute_targets())

    def ev_tribute(self, side: int, num: int) -> None:
        self.step, self.actor = "tribute", PERSIA

    def legal_tribute(self) -> list[str]:
        return [self.t.s_place[c] for c in self.tribute_targets()]

    def do_tribute(self, args: list[str]) -> None:
        city = self.t.index[args[1]]
        self.arm[PERSIA][city] += 1
        self.res_arm[PERSIA] -= 1
        self.ev_city = city
        self.log("place", "{} offers earth and water: a Persian army is placed there", (args[1],))
        if self.may_hold(GREECE, "molon_labe"):
            self.step, self.actor = "molon", GREECE
        else:
            self.finish_action()

    def legal_molon(self) -> list[str]:
        return self.react_or_decline(GREECE, "molon_labe")

    def do_molon(self, args: list[str]) -> None:
        if args[0] == "decline":
            self.log("decline", "Greece lets the tribute stand", to=GREECE)
            self.finish_action()
            return
        num = int(args[1])
        self.discard_card(GREECE, num)
        city = self.ev_city
        self.arm[PERSIA][city] -= 1
        self.res_arm[PERSIA] += 1
        self.log("react", "Greece plays {} Molon Labe: the tribute of {} is refused",
                 (num, self.t.names[city]), data={"card": num})
        self.stack.append("end_turn")
        self.begin_move(GREECE, "land")

    def ok_carneia(self, side: int) -> bool:
        return True

    def ev_carneia(self, side: int, num: int) -> None:
        self.carneia = True
        self.log("carneia", "The Carneia Festival holds Sparta until the campaign ends")
        self.finish_action()

    def ok_ostracism(self, side: int) -> bool:
        return bool(self.hands[GREECE])

    def ev_ostracism(self, side: int, num: int) -> None:
        hand = self.hands[GREECE]
        victim = hand[int(self.rngs["deck"].random() * len(hand))]
        self.discard_card(GREECE, victim)
        self.log("discard", "Ostracism: Greece discards {}", (self.card_name(GREECE, victim),),
                 data={"card": victim})
        self.finish_action()

    def royal_road_cities(self) -> list[int]:
        return [c for c in self.t.majors[PERSIA] if self.arm[GREECE][c] or self.res_arm[PERSIA]]

    def ok_royal_road(self, side: int) -> bool:
        return bool(self.royal_road_cities())

    def ev_royal_road(self, side: int, num: int) -> None:
        self.step, self.actor = "royal_road", PERSIA

    def legal_royal_road(self) -> list[str]:
        out = []
        most = min(self.t.param(PERSIA, "royal_road", "max_armies", 3), self.res_arm[PERSIA])
        for c in self.royal_road_cities():
            name = self.t.names[c]
            if self.arm[GREECE][c]:
                out.append(f"target {name}")
            else:
                out += [f"target {name} {k}" for k in range(1, most + 1)]
        return out

    def do_royal_road(self, args: list[str]) -> None:
        city = self.t.index[args[1]]
        if len(args) == 2:
            count = self.arm[GREECE][city]
            self.arm[GREECE][city] = 0
            self.res_arm[GREECE] += count
            self.log("remove", "The Royal Road: {} of Greece leave {}",
                     (count_of(count, "army"), args[1]))
        else:
            count = int(args[2])
            self.arm[PERSIA][city] += count
            self.res_arm[PERSIA] -= count
            self.log("place", "The Royal Road: {} of Persia arrive in {}",
                     (count_of(count, "army"), args[1]))
        self.finish_action()

    def ok_hippias(self, side: int) -> bool:
        return bool(self.hands[GREECE])

    def ev_hippias(self, side: int, num: int) -> None:
        hand = sorted(self.hands[GREECE])
        self.log("reveal", "Hippias shows the Greek hand: {}", (hand,), to=PERSIA,
                 data={"cards": hand})
        self.step, self.actor = "hippias", PERSIA

    def legal_hippias(self) -> list[str]:
        return [self.t.s_discard[n] for n in sorted(self.hands[GREECE])]

    def do_hippias(self, args: list[str]) -> None:
        num = int(args[1])
        self.discard_card(GREECE, num)
        self.log("discard", "Hippias: Greece discards {}", (self.card_name(GREECE, num),),
                 data={"card": num})
        self.finish_action()

    def ok_separate_peace(self, side: int) -> bool:
        return bool(self.hands[GREECE])

    def ev_separate_peace(self, side: int, num: int) -> None:
        g_roll, _ = self.roll(1, 6)
        p_roll, _ = self.roll(1, 6)
        if p_roll > g_roll:   # only a broken alliance shows Persia the hand it purges
            hand = sorted(self.hands[GREECE])
            self.log("reveal", "Separate Peace shows the Greek hand: {}", (hand,), to=PERSIA,
                     data={"cards": hand})
            gone = [n for n in self.hands[GREECE] if n in self.t.sparta_cards]
            for n in gone:
                self.discard_card(GREECE, n)
            self.log("separate_peace", "Separate Peace: Greece rolls {}, Persia {}; Greece "
                     "discards {}", (g_roll, p_roll, gone or "nothing"), data={"cards": gone})
        else:
            self.log("separate_peace", "Separate Peace: Greece rolls {}, Persia {}; Sparta stays "
                     "loyal", (g_roll, p_roll), data={"cards": []})
        self.finish_action()

    def defection_refuges(self) -> list[int]:
        city = self.t.defection_city
        return [c for c in range(self.t.ncity) if c != city and self.controls(GREECE, c)]

    def ok_defection_of_thebes(self, side: int) -> bool:
        if self.arm[GREECE][self.t.defection_city]:
            return bool(self.defection_refuges())
        return self.res_arm[PERSIA] > 0

    def ev_defection_of_thebes(self, side: int, num: int) -> None:
        if self.arm[GREECE][self.t.defection_city]:
            self.step, self.actor = "defection", GREECE
        else:
            self.defection_place()

    def legal_defection(self) -> list[str]:
        return [self.t.s_relocate[c] for c in self.defection_refuges()]

    def do_defection(self, args: list[str]) -> None:
        city, dest = self.t.defection_city, self.t.index[args[1]]
        count = self.arm[GREECE][city]
        self.arm[GREECE][city] = 0
        self.arm[GREECE][dest] += count
        self.log("move", "{} of Greece leave {} for {}",
                 (count_of(count, "army"), self.t.names[city], args[1]))
        self.defection_place()

    def defection_place(self) -> None:
        city = self.t.defection_city
        if self.res_arm[PERSIA]:
            self.res_arm[PERSIA] -= 1
            self.arm[PERSIA][city] += 1
            self.log("place", "A Persian army is placed in {}", (self.t.names[city],))
        self.finish_action()

    def ok_acropolis(self, side: int) -> bool:
        return self.arm[PERSIA][self.t.acropolis_city] > 0

    def ev_acropolis(self, side: int, num: int) -> None:
        self.acropolis = True
        self.log("acropolis", "The Acropolis burns: Athenai scores for nobody this campaign")
        self.finish_action()

    def ok_pacification(self, side: int) -> bool:
        return True

    def ev_pacification(self, side: int, num: int) -> None:
        self.pc_count = 0
        self.step, self.actor = "pacification", PERSIA

    def legal_pacification(self) -> list[str]:
        return [self.t.s_discard[n] for n in sorted(self.hands[PERSIA])] + ["done"]

    def do_pacification(self, args: list[str]) -> None:
        if args[0] == "discard":
            num = int(args[1])
            self.discard_card(PERSIA, num)
            self.pc_count += 1
            self.log("discard", "Persia discards {}", (self.card_name(PERSIA, num),),
                     data={"card": num})
            return
        drawn = self.draw(PERSIA, self.pc_count + self.t.param(PERSIA, "pacification", "extra_draw", 1))
        if self.t.card_of[PERSIA].get("sudden_death") in drawn and not self.xerxes_dead:
            self.kill_king("pacification")
        else:
            self.finish_action()

    def ok_none(self, side: int) -> bool:
        return False

    def ok_sudden_death(self, side: int) -> bool:
        return False
