"""A modern match dealt from stacked decks in which the player who reaches the target first
ends with the lower final total: nine small knocks for seat 1 (3 points each), then one gin
for seat 0 (118 points). RULES.md, "The game": under ``modern`` seat 0 wins it anyway.

The arithmetic from the rule book (modern: game bonus 100, box bonus 25 per hand won):
seat 0 118 + 100 + 25 = 243; seat 1 9 x 3 + 9 x 25 = 252.
"""

from __future__ import annotations

from deals import build_deck
from ginrummy import Match, get_rules

#: With the upcard Ah: A-2-3♣ 4-5-6♦ 9-9-9; knocking with the K♥ leaves the A♥, 1 deadwood.
SMALL_KNOCKER = "Ac 2c 3c 4d 5d 6d 9s 9d 9c Kh"
#: Three sets (or three runs) and the 4♠: 4 deadwood, nothing to lay off.
SMALL_DEFENDER = "Kc Kd Ks Qc Qd Qs Jc Jd Js 4s"
#: With the upcard 9h: A-2-3♣ 4-5-6♦ 9-9-9-9; knocking with the K♥ is gin.
GIN = "Ac 2c 3c 4d 5d 6d 9s 9d 9c Kh"
#: No meld at all: 93 deadwood.
BIG_DEFENDER = "Kc Qc Jd Td 8d 8h Ks Qs Jh 7c"

SMALL_WINS = 9


def comeback_match(
    *, finish: bool = True, small_wins: int = SMALL_WINS, hollywood: bool = False
) -> Match:
    """The match above (seat 0 deals first, the deal alternates). With ``finish`` false it
    stops in the last hand after seat 0 took the 9♥, one move (``knock Kh``, gin) before the
    end. Under ``hollywood`` the same hands end game 1 only (every win of seat 1 and seat 0's
    first are entered in game 1), with the same totals; games 2 and 3 go on."""
    m = Match(get_rules("modern", hollywood=hollywood), seed="comeback", first_dealer=0,
              start=False)
    for n in range(small_wins):
        if n % 2 == 0:  # seat 0 deals: seat 1, the non-dealer, takes the upcard and knocks
            m.next_hand(build_deck(SMALL_KNOCKER, SMALL_DEFENDER, "Ah"))
            m.play("take")
        else:  # seat 1 deals: seat 0 passes, seat 1 takes the upcard and knocks
            m.next_hand(build_deck(SMALL_DEFENDER, SMALL_KNOCKER, "Ah"))
            m.play("pass")
            m.play("take")
        m.play("knock Kh")
    dealer = small_wins % 2
    if dealer == 1:  # seat 0 is the non-dealer
        m.next_hand(build_deck(GIN, BIG_DEFENDER, "9h"))
    else:
        m.next_hand(build_deck(BIG_DEFENDER, GIN, "9h"))
        m.play("pass")
    m.play("take")
    if finish:
        m.play("knock Kh")
    return m
