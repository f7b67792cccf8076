"""The terminal table's drawing, rendered to a recording Rich console.

Hands here are dealt on purpose, so every expected line was worked out by hand from the cards.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.cells import cell_len
from rich.console import Console, RenderableType

from ginrummy.engine.cards import Card, cards_of_mask
from ginrummy.engine.match import Match
from ginrummy.engine.rules import get_rules
from ginrummy.players import make
from ginrummy.tui.pages import ScoreSheet, render_help, render_rules, render_sheet, sheet_summary
from ginrummy.tui.render import (
    moves_text,
    prompt_text,
    recent_moves,
    render_hand_end,
    render_table,
)
from ginrummy.words.explain import explain_result
from ginrummy.words.sheet import GameSheet, SheetRow, score_sheet
from tui_support import greedy_choice, match_with, stacked_blocks

NAMES = ("You", "Computer")
HUMAN = "7h 8h 9h Kc Kd Ks 2c 5d 9s Jh"
COMPUTER = "3c 4c 5c Qh Qd Qs 6s 7d Ac 2d"


def text_of(renderable: RenderableType, width: int = 200) -> str:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def table_text(match: Match, *, plain: bool = True, order: str = "rank") -> str:
    view = match.view(0)
    return text_of(render_table(view, NAMES, match.score, plain=plain, order=order))  # type: ignore[arg-type]


def line_starting(text: str, head: str) -> str:
    return next(ln.strip() for ln in text.splitlines() if ln.strip().startswith(head))


def test_the_hand_is_grouped_into_melds_with_its_deadwood() -> None:
    match = match_with(HUMAN, COMPUTER, "4s")
    text = table_text(match, order="rank")
    # Melds 7-8-9 of hearts and three kings; deadwood 2 + 5 + 9 + 10 = 26.
    assert line_starting(text, "Your cards:") == (
        "Your cards: [7h 8h 9h] [Kc Kd Ks] 2c 5d 9s Jh   deadwood 26"
    )
    by_suit = table_text(match, order="suit")
    assert line_starting(by_suit, "Your cards:") == (
        "Your cards: [Kc Kd Ks] [7h 8h 9h] 2c 5d Jh 9s   deadwood 26"
    )
    assert "Upcard: 4s" in text
    assert "Stock: 31 cards" in text
    assert line_starting(text, "Computer:") == "Computer: 10 cards"
    assert "knock limit 10" in text


def test_symbols_outside_plain_mode() -> None:
    match = match_with(HUMAN, COMPUTER, "4s")
    text = table_text(match, plain=False)
    assert "[7♥ 8♥ 9♥] [K♣ K♦ K♠] 2♣ 5♦ 9♠ J♥" in text
    assert "Upcard: 4♠" in text


def test_the_opponents_moves_and_pickups_are_shown() -> None:
    match = match_with(HUMAN, COMPUTER, "4s")
    match.play("pass")
    match.play("take")
    match.play("discard 2d")
    text = table_text(match)
    assert "Computer took the upcard 4s and discarded 2d." in text
    assert line_starting(text, "Computer:") == (
        "Computer: 10 cards; picked up from the pile and still holding 4s"
    )
    assert "Discard pile: 2d on top of 0 more" not in text
    assert "Discard pile: 2d" in text
    # The stock's top card is the lowest card not dealt: the 6 of clubs.
    match.play("draw")
    text = table_text(match)
    assert line_starting(text, "Your cards:") == (
        "Your cards: [7h 8h 9h] [Kc Kd Ks] 2c 5d 6c* 9s Jh   deadwood 32"
    )
    assert "You drew 6c from the stock." in text
    assert "Stock: 30 cards" in text


def test_a_stock_draw_of_the_opponent_shows_no_card() -> None:
    match = match_with(HUMAN, COMPUTER, "4s", human_deals=True)
    match.play("pass")  # computer (non-dealer) passes
    match.play("pass")  # human passes
    match.play("draw")  # computer draws the 6c, unseen
    match.play("discard 7d")
    lines = recent_moves(match.view(0), NAMES, plain=True)
    # Only what happened since the human's own last move (its pass).
    assert lines == ["Computer drew from the stock and discarded 7d."]
    assert "6c" not in table_text(match)


def test_the_table_never_shows_the_computers_hidden_cards() -> None:
    """Over whole hands of play, no card the computer holds unseen is ever drawn."""
    rules = get_rules("traditional")
    computer = make("random", seed=3)
    card_re = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([cdhs])(?![a-z])")
    for seed in range(4):
        match = Match(rules, seed=f"fair-{seed}")
        checked = 0
        while not match.hand.over:
            view = match.view(0)
            hidden = match.hand.hands[1] & ~view.opponent_known_mask
            text = table_text(match) + "\n".join(recent_moves(view, NAMES, plain=True))
            shown = {Card.parse(m.group(0)) for m in card_re.finditer(text)}
            leaked = [c for c in cards_of_mask(hidden) if c in shown]
            assert not leaked, f"seed {seed}: hidden cards {leaked} drawn"
            checked += 1
            seat = match.hand.to_play
            move = greedy_choice(view) if seat == 0 else computer.choose(match.view(1))
            match.play(move)
        assert checked > 5


def test_prompts_name_the_moves_of_the_phase() -> None:
    match = match_with(HUMAN, COMPUTER, "4s")
    assert prompt_text(match.view(0), plain=True) == "Take the upcard 4s (t) or pass (p) > "
    assert moves_text(match.view(0)) == "You can: t, p"
    match.play("take")
    assert prompt_text(match.view(0), plain=True) == "Discard (x <card>) > "
    match.play("discard Jh")
    match.play("draw")
    match.play("discard 2d")
    draw = "Draw (d) or take the {} (t) > "
    assert prompt_text(match.view(0), plain=True) == draw.format("2d")
    assert prompt_text(match.view(0), plain=False) == draw.format("2♦")


def test_knock_prompt_when_a_knock_is_legal() -> None:
    match = match_with("7h 8h 9h Kc Kd Ks 2c 3c 4c Jh", "Qh Qd Qs 6s 7d Ac 2d 5s 9c Th", "Ah")
    match.play("take")
    assert prompt_text(match.view(0), plain=True) == "Discard (x <card>), knock (k <card>) > "
    assert "k Jh" in moves_text(match.view(0))


def test_the_end_of_a_hand_lays_out_both_hands_and_the_score() -> None:
    computer = "Qh Qd Qs 6s 7d Ac 2d 5s 9c Th"
    match = match_with("7h 8h 9h Kc Kd Ks 2c 3c 4c Jh", computer, "Ah")
    match.play("take")
    match.play("knock Jh")
    view = match.view(0)
    assert view.result is not None
    sentence = explain_result(view.result, NAMES, you=0)
    text = text_of(render_hand_end(view, NAMES, sentence, plain=True))
    assert line_starting(text, "You (knocker):") == (
        "You (knocker): [2c 3c 4c] [Kc Kd Ks] [7h 8h 9h] Ah   deadwood 1"
        "   (discarded Jh face down)"
    )
    # The ace of clubs goes on 2-3-4 of clubs, the ten of hearts on 7-8-9 of hearts;
    # left: 9 + 2 + 7 + 5 + 6 = 29, and 29 - 1 = 28 for the knocker.
    assert line_starting(text, "Computer:") == (
        "Computer: [Qd Qh Qs] 9c 2d 7d 5s 6s   laid off Ac 10h   deadwood 29"
    )
    assert "You knocked with 1; Computer had 29 after laying off Ac 10h: you score 28." in text


@pytest.mark.parametrize(("moves", "role"), [
    (["take", "knock 7h"], "gin"),  # 2c-6c, Kc Kd Ks, 8h 9h Th Jh: the 7h thrown
    (["take", "big gin"], "big gin"),  # all eleven melded
])
def test_a_gin_and_a_big_gin_are_named_as_such(moves: list[str], role: str) -> None:
    match = match_with("7h 8h 9h Kc Kd Ks 2c 3c 4c 5c", "Qh Qd Qs 6s 7d Ac 2d 5s 9c Jh",
                       "6c" if role == "big gin" else "Th", "modern")
    for move in moves:
        match.play(move)
    view = match.view(0)
    assert view.result is not None and view.result.kind == role.replace(" ", "_")
    text = text_of(render_hand_end(view, NAMES, "sentence", plain=True))
    assert line_starting(text, f"You ({role}):")


def test_a_cancelled_hand_shows_both_hands() -> None:
    rules = get_rules("traditional")
    match = Match(rules, seed="cancel")
    players = [make("random", seed=1), make("random", seed=2)]
    while not match.hand.over:
        seat = match.hand.to_play
        match.play(players[seat].choose(match.view(seat)))
    view = match.view(0)
    assert view.result is not None
    text = text_of(render_hand_end(view, NAMES, "sentence", plain=True))
    assert line_starting(text, "You").startswith(("You: ", "You (knocker)", "You (gin)"))
    assert "Computer" in text


def _game(index: int, points: tuple[int, int], won: tuple[int, int], over: bool) -> GameSheet:
    bonus = (100, 0) if over else (0, 0)
    box = (20 * won[0], 20 * won[1]) if over else (0, 0)
    totals = tuple(points[s] + bonus[s] + box[s] for s in (0, 1))
    return GameSheet(
        index=index,
        points=points,
        hands_won=won,
        game_bonus=bonus,
        box_bonus=box,
        shutout=False,
        doubled=(0, 0),
        totals=(totals[0], totals[1]),
        over=over,
        winner=(0 if totals[0] > totals[1] else 1) if over else None,
    )


def test_hollywood_sheet_has_three_games_side_by_side_with_bonuses() -> None:
    rows = [
        SheetRow(1, 1, "knock: you score 40", 0, 40, (True, False, False),
                 ((40, 0), (0, 0), (0, 0))),
        SheetRow(2, 0, "gin: Computer scores 25", 1, 25, (True, False, False),
                 ((40, 25), (0, 0), (0, 0))),
        SheetRow(3, 1, "undercut: you score 80", 0, 80, (True, True, False),
                 ((120, 25), (80, 0), (0, 0))),
    ]
    games = [
        _game(0, (120, 25), (2, 1), True),
        _game(1, (80, 0), (1, 0), False),
        _game(2, (0, 0), (0, 0), False),
    ]
    rules = get_rules("traditional", hollywood=True)
    text = text_of(render_sheet(rows, games, NAMES, rules, plain=True))
    header = line_starting(text, "Hand")
    assert re.search(r"Game 1\s+Game 2\s+Game 3", header)
    third = line_starting(text, "3 ")
    assert re.search(r"undercut \(You\)\s+80\s+120-25\s+80-0", third)
    assert (
        "Game 1 over: You 120 + game bonus 100 + box bonus 40 (2 hands won) = 260; "
        "Computer 25 + box bonus 20 (1 hand won) = 45: You won by 215 points." in text
    )
    assert "Game 2: You 80, Computer 0 (to 100)" in text
    assert "Game 3: You 0, Computer 0 (to 100)" in text


def test_single_game_sheet_has_one_column_per_player() -> None:
    rows = [SheetRow(1, 1, "gin: Computer scores 45", 1, 45, (True,), ((0, 45),))]
    text = text_of(render_sheet(rows, [_game(0, (0, 45), (0, 1), False)], NAMES,
                                get_rules("traditional"), plain=True))
    assert re.search(r"Hand\s+Dealer\s+Ending\s+Points\s+You\s+Computer", text)
    assert re.search(r"1\s+Computer\s+gin \(Computer\)\s+45\s+0\s+45", text)


#: Two 24-character names: too long for a 40-column sheet's columns.
LONG_NAMES = ("Bartholomew Featherstone", "Wilhelmina Fitzgeraldson")


def played_sheet(
    hollywood: bool, names: tuple[str, str], hands: int | None = None
) -> tuple[list[SheetRow], list[GameSheet], Match]:
    """The sheet of a match (games to 50) played by the scripted player in both seats, after
    ``hands`` hands or to its end."""
    match = Match(get_rules("traditional", hollywood=hollywood, target=50), seed="narrow")
    while True:
        while not match.hand.over:
            match.play(greedy_choice(match.view(match.hand.to_play)))
        if match.over or len(match.hands) == hands:
            break
        match.next_hand()
    rows, games = score_sheet(match, names, you=0)
    return rows, games, match


def lines_of(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


@pytest.mark.parametrize("plain", [True, False])
@pytest.mark.parametrize("names", [LONG_NAMES, NAMES])
@pytest.mark.parametrize("hands", [6, None])
def test_a_hollywood_sheet_at_40_columns_cuts_nothing(
    plain: bool, names: tuple[str, str], hands: int | None
) -> None:
    rows, games, match = played_sheet(True, names, hands)
    assert any(not all(row.entered) for row in rows)  # some hands count in fewer games
    text = text_of(render_sheet(rows, games, names, match.rules, plain=plain), width=40)
    assert "…" not in text
    lines = lines_of(text)
    assert all(cell_len(line) <= 40 for line in lines)
    # Every name whole on a line; every game's running score after every hand it counts in.
    assert f"Game scores read {names[0]}-{names[1]}." in " ".join(text.split())
    for row, said in zip(rows, stacked_blocks(text, rows, names), strict=True):
        for g, (entered, (a, b)) in enumerate(zip(row.entered, row.running, strict=True)):
            assert (f"Game {g + 1}: {a}-{b}" in said) == entered
    # The notes: each game's points, its bonuses and final totals once over.
    flat = " ".join(text.split())
    for line in sheet_summary(games, names, match.rules.target):
        assert line in flat
    for g in games:
        for seat in (0, 1):
            total = f"= {g.totals[seat]}" if g.over else f"{names[seat]} {g.points[seat]}"
            assert total in flat


@pytest.mark.parametrize("plain", [True, False])
def test_a_single_game_sheet_with_long_names_at_40_columns_cuts_nothing(plain: bool) -> None:
    rows, games, match = played_sheet(False, LONG_NAMES)
    [game] = games
    assert game.over
    text = text_of(render_sheet(rows, games, LONG_NAMES, match.rules, plain=plain), width=40)
    assert "…" not in text
    lines = [line.strip() for line in lines_of(text)]
    assert all(cell_len(line) <= 40 for line in lines)
    a_name, b_name = LONG_NAMES
    # The running score after each hand, one player a line, each name whole.
    scores = [(lines[i], lines[i + 1]) for i, line in enumerate(lines) if line.startswith("Score:")]
    assert scores == [
        (f"Score:  {a_name} {a}", f"{b_name} {b}") for row in rows for (a, b) in row.running
    ]
    for row in rows:
        assert f"Dealer: {LONG_NAMES[row.dealer]}" in lines
    flat = " ".join(text.split())
    assert f"= {game.totals[0]}; {b_name} " in flat and f"= {game.totals[1]}: " in flat
    for line in sheet_summary(games, LONG_NAMES, match.rules.target):
        assert line in flat


def test_a_cancelled_hand_on_a_narrow_sheet_names_no_winner() -> None:
    rows = [
        SheetRow(1, 1, "knock: you score 40", 0, 40, (True,), ((40, 0),)),
        SheetRow(2, 0, "cancelled (stock ran out)", None, 0, (True,), ((40, 0),)),
    ]
    text = text_of(render_sheet(rows, [_game(0, (40, 0), (1, 0), False)], LONG_NAMES,
                                get_rules("traditional"), plain=True), width=40)
    second = [line.strip() for line in text.split("Hand 2")[1].splitlines()]
    assert second[1:5] == [
        f"Dealer: {LONG_NAMES[0]}",
        "Ending: cancelled (stock ran out)",
        f"Score:  {LONG_NAMES[0]} 40",
        f"{LONG_NAMES[1]} 0",
    ]


@pytest.mark.parametrize("plain", [True, False])
@pytest.mark.parametrize("hollywood", [True, False])
@pytest.mark.parametrize("names", [LONG_NAMES, NAMES])
def test_at_normal_widths_the_sheet_is_the_table_as_before(
    plain: bool, hollywood: bool, names: tuple[str, str]
) -> None:
    rows, games, match = played_sheet(hollywood, names)
    sheet = ScoreSheet(rows, games, names, match.rules, plain=plain)
    for width in (100, 200) if names == LONG_NAMES else (80, 100):
        drawn = text_of(render_sheet(rows, games, names, match.rules, plain=plain), width)
        assert drawn == text_of(sheet.wide(), width)
        assert re.search(r"Hand\s+Dealer\s+Ending\s+Points", drawn)
    assert text_of(render_sheet(rows, games, names, match.rules, plain=plain), 40) == (
        text_of(sheet.stacked(), 40)
    )


def test_plain_mode_is_ascii_only() -> None:
    computer = "Qh Qd Qs 6s 7d Ac 2d 5s 9c Th"
    oklahoma = match_with(HUMAN, COMPUTER, "4s", "oklahoma")
    assert "knock limit 4 (set by the upcard 4s)" in table_text(oklahoma)
    parts = [table_text(oklahoma), text_of(render_help(True))]
    parts.append(text_of(render_rules(oklahoma.rules, True)))
    match = match_with("7h 8h 9h Kc Kd Ks 2c 3c 4c Jh", computer, "Ah")
    match.play("take")
    parts.append(table_text(match))
    match.play("knock Jh")
    view = match.view(0)
    assert view.result is not None
    parts.append(text_of(render_hand_end(view, NAMES, explain_result(view.result, NAMES, you=0),
                                         plain=True)))
    for part in parts:
        assert part.isascii(), part


def _box_width(renderable: RenderableType, width: int) -> int:
    lines = text_of(renderable, width).splitlines()
    return max(cell_len(line.rstrip()) for line in lines)


@pytest.mark.parametrize("width", [40, 120])
def test_the_box_keeps_one_width_through_a_whole_hand(width: int) -> None:
    """Issue 38: the table's box was as wide as the longest line of the turn (58, then 61,
    then 78 columns); on a given terminal it is one width every turn, and the hand-end box
    is that width too."""
    computer = make("random", seed=5)
    for seed in range(3):
        match = Match(get_rules("traditional"), seed=f"box-{seed}")
        widths = set()
        while not match.hand.over:
            view = match.view(0)
            widths.add(_box_width(render_table(view, NAMES, match.score), width))
            seat = match.hand.to_play
            match.play(greedy_choice(view) if seat == 0 else computer.choose(match.view(1)))
        view = match.view(0)
        assert view.result is not None
        said = explain_result(view.result, NAMES, you=0)
        widths.add(_box_width(render_hand_end(view, NAMES, said), width))
        assert widths == {min(width, 80)}, (seed, sorted(widths))
