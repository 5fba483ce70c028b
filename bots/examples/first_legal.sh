#!/usr/bin/env bash
# An agon bot in bash, with no JSON parser: it plays the first legal action.
#
#   agon play earth-and-water --seat persia="bash first_legal.sh" --seat greece=random
#
# The referee writes `ask ID N {json}`: N, the number of legal actions, comes
# before the JSON, so answering `act ID k` with 0 <= k < N is always legal.
# Everything else (the hello's details, events, the result) can be ignored.
# Its `ready` asks for `newgame` (protocol 1.1): after a game's result the
# referee may send the next game instead of `quit`, and the same process plays it.

while IFS= read -r line; do
    case "$line" in
        "agon "*|"newgame "*)
            # the referee's seed for this game and seat: a bot that draws with
            # $RANDOM plays the same game again for the same tournament seed
            [[ $line =~ \"seed\":([0-9]+) ]] && RANDOM=${BASH_REMATCH[1]}
            echo 'ready first-legal {"wants":["newgame"]}'
            ;;
        "ask "*)
            rest=${line#ask }          # ID N {json}
            id=${rest%% *}             # ID
            rest=${rest#* }            # N {json}
            count=${rest%% *}          # N
            if (( count > 0 )); then
                echo "act $id 0"       # try $((RANDOM % count)) for a random bot
            fi
            ;;
        quit)
            exit 0
            ;;
    esac                               # event and result lines: nothing to do
done
