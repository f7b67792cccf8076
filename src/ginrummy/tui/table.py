"""The terminal table's loop: deal, ask the human, let the computer answer, save, repeat.

:class:`TerminalTable` seats the human and the computer at a :class:`~ginrummy.engine.table.Table`,
which owns the game flow: it deals, plays the human's moves and asks the computer player for
its moves with the computer seat's view (reseeded before each decision from the save's computer
seed, :func:`~ginrummy.engine.table.decision_seed`, so a resumed match gets the same answers). This
module shows the human only what :mod:`.render` draws from the human seat's view; only the
engine decides what is legal and what a hand scores. The match is saved after every move, the
human's and the computer's, before anything else is shown.

Hands are dealt from sealed deals (:mod:`.sealing`): before each deal the table prints the
hand's commitment, which was saved before it was shown, and takes the human's client seed; once
the hand is over it prints the revealed server seed. The computer player only ever receives its
seat's view, which holds no seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import ClassVar, NoReturn, TypeVar

from rich.console import Console, RenderableType
from rich.text import Text

from ..coach import Assessment, Coach, decision_kind, review_hand
from ..engine.errors import GinRummyError, IllegalMoveError, InvalidCardError
from ..engine.match import Match
from ..engine.melds import deadwood_after_discard
from ..engine.move import KNOCK, Move
from ..engine.shuffle import SealError, check_client_seed
from ..engine.table import Computer, Person, Seat, Table
from ..engine.view import PlayerView
from ..players import Player
from ..words.explain import explain_result, with_verb
from ..words.sheet import score_sheet
from .coach import remark_text, render_review
from .lines import InputFn, Quit, read_line
from .pages import match_outcome, render_help, render_rules, render_sheet
from .parse import Action, Command, CommandError, parse_command, short_move
from .render import (
    SortOrder,
    asciify,
    card_label,
    deal_prompt,
    moves_text,
    prompt_text,
    render_hand_end,
    render_table,
)
from .saves import SavedMatch, SaveStore
from .sealing import offered_client_seed
from .tutorial import FINAL_TIP, SKIP_WORDS

__all__ = ["TerminalTable", "COACH_SEED"]

#: The terminal coach's seed: fixed, so the same decision always gets the same remark.
COACH_SEED = "terminal"

#: What ``seed TEXT`` does and when it works, said whenever it cannot work now.
SEED_WORKS = ("'seed TEXT' chooses your client seed between hands, before the deal, in a "
              "sealed match.")

#: Said to ``commitment`` and ``seed TEXT`` in a match whose hands are not sealed.
UNSEALED = "This match was started before sealed deals: its hands are not sealed"

#: The tutorial's tip before the first deal (the other tips come from :mod:`.tutorial`).
SEALED_TIP = ("Tip: press Enter to deal. Each deck is sealed before the deal, so you can check "
              "it once the hand is over.")

_T = TypeVar("_T")
TipFn = Callable[[PlayerView, bool], "str | None"]


@dataclass(frozen=True)
class TableCommand:
    """What one typed command does at the table: ``during`` a hand
    (``during(table, command, view)``) and ``between`` hands, before hand ``n + 1`` is dealt
    (``between(table, command, n)``; ``None``: it needs a hand on the table). ``word`` is how
    the answer to anything else between hands offers it (``None``: not offered there; Enter
    and q are named apart). ``sealed`` ones are offered only in a sealed match; typed in
    another, they say why they do nothing."""

    during: Callable[[TerminalTable, Command, PlayerView], None]
    between: Callable[[TerminalTable, Command, int], None] | None = None
    word: str | None = None
    sealed: bool = False


class TerminalTable:
    """One match between a person at the terminal and a computer player.

    ``ask`` reads one line after showing a prompt and returns ``None`` at the end of input; by
    default it reads the console. ``store`` receives the match after every move.
    ``client_seed`` is the human's client seed for every hand dealt in this session (``seed
    TEXT`` before a deal overrides it for that hand); without one a seed is drawn at random.
    ``coach``, when given, remarks on each of the human's decisions and reviews each hand
    (``coach on`` and ``coach off`` switch it at the table).
    """

    def __init__(
        self,
        saved: SavedMatch,
        player: Player,
        store: SaveStore,
        console: Console,
        *,
        plain: bool = False,
        ask: InputFn | None = None,
        client_seed: str | None = None,
        tips: TipFn | None = None,
        coach: Coach | None = None,
    ) -> None:
        if client_seed is not None:
            check_client_seed(client_seed)
        self.saved = saved
        self.player = player
        self.store = store
        self.console = console
        self.plain = plain
        self._ask = ask
        self.you = saved.meta.human_seat
        self.computer = 1 - self.you
        seats: list[Seat] = [Person(saved.names[self.you])] * 2
        seats[self.computer] = Computer(player, reseed_from=saved.meta.computer_seed)
        self.table = Table(saved.match, seats, sealer=saved.sealer)
        self._shown_end = -1  # number of the hand whose ending was last shown
        self._table_shown = False
        self._session_seed = client_seed
        self._seeds: dict[int, tuple[str, str]] = {}  # hand index -> (client seed, its origin)
        self._shown_seal = -1  # index of the hand whose commitment was last shown
        self.tips = tips  # the tutorial's tips (``play --tutorial``); None when off
        self._last_tip: str | None = None
        # The coach: on when asked for (``--coach``) or when it was on as the match was last
        # saved; the choice is kept in the save's meta.
        if coach is None and saved.meta.coach:
            coach = Coach(seed=COACH_SEED)
        if coach is not None and not saved.meta.coach:
            self.saved.meta = replace(saved.meta, coach=True)
        self.coach = coach
        # The coach's remarks on the current hand's decisions, by move index (for the review).
        self._remarks: dict[int, Assessment] = {}
        self._remarks_hand = 0

    # -----------------------------------------------------------------------------------------
    # Small helpers.

    @property
    def match(self) -> Match:
        return self.saved.match

    @property
    def names(self) -> tuple[str, str]:
        return self.saved.names

    @property
    def order(self) -> SortOrder:
        return self.saved.meta.sort

    def view(self) -> PlayerView:
        """The human seat's view: the only state the table ever draws."""
        return self.match.view(self.you)

    def say(self, text: str, style: str = "") -> None:
        # Wrapped by rich at word boundaries to the console's width (soft_wrap would leave the
        # terminal to break lines, mid-word); a word longer than a line (a path) is not cut.
        if self.plain:
            self.console.print(Text(asciify(text), overflow="ignore"))
        else:
            self.console.print(Text(text, style=style, overflow="ignore"))

    def show(self, renderable: RenderableType) -> None:
        self.console.print(renderable)

    def ask(self, prompt: str) -> str:
        """One line from the human; raises :class:`Quit` at the end of input or on Ctrl-C."""
        return read_line(self.console, self._ask, prompt, plain=self.plain)

    def save(self) -> None:
        """Write the match; a hand that has just ended gets the next hand's commitment first,
        so no commitment is ever shown before it is on disk."""
        self.table.seal_next()
        self.store.write(self.saved)

    # -----------------------------------------------------------------------------------------
    # The loop.

    def run(self) -> bool:
        """Play until the match is over (True) or the human leaves (False)."""
        try:
            while not self.match.over:
                if self.table.waiting_for_deal:
                    self._between_hands()
                elif self.table.to_act == self.computer:
                    self._computer_move()
                else:
                    self._human_turn()
        except Quit:
            self.save()
            self.say(f"Saved in {self.store.current}. Run 'ginrummy play' again to carry on.")
            return False
        except KeyboardInterrupt:
            # Every move was saved as it was played; the save on disk is the match as it was
            # before the interrupted step, so it is left as it is.
            self.console.print()
            self.say(f"Interrupted. Your match is saved in {self.store.current}.")
            return False
        self._show_hand_end()
        self._finish()
        return True

    def _computer_move(self) -> None:
        """One move of the computer (the table asks it), saved before anything is shown."""
        if self.plain or not self.console.is_terminal:
            self.table.step()
        else:
            with self.console.status(f"{self.names[self.computer]} is thinking..."):
                self.table.step()
        self.save()

    def _human_turn(self) -> None:
        view = self.view()
        if not self._table_shown:
            self.show(render_table(view, self.names, self.match.score, plain=self.plain,
                                   order=self.order))
            self._table_shown = True
        if self.tips is not None:
            tip = self.tips(view, self.plain)
            if tip and tip != self._last_tip:
                self.say(tip, "green")
                self._last_tip = tip
        line = self.ask(prompt_text(view, self.plain))
        if self.tips is not None and line.strip().lower() in SKIP_WORDS:
            self.tips = None
            self.say("Tips are off; type ? for the commands.")
            return
        try:
            command = parse_command(line, view.phase)
        except (CommandError, InvalidCardError) as exc:
            self.say(str(exc), "yellow")
            return
        self._do(command, view)

    def _do(self, command: Command, view: PlayerView) -> None:
        self._COMMANDS[command.action].during(self, command, view)

    def _look(self) -> None:
        self._table_shown = False  # drawn again before the next prompt

    def _gin(self, command: Command, view: PlayerView) -> None:
        move = self._gin_move(command, view)
        if move is not None:
            self._play(move)

    def _move(self, command: Command) -> None:
        assert command.move is not None
        self._play(command.move)

    def _play(self, move: str) -> None:
        """Play the human's move; an illegal one prints the engine's sentence and changes
        nothing. With the coach on, its remark on the move follows."""
        before = self.view()
        index = len(self.match.hand.history)
        try:
            self.table.play(self.you, move)
        except IllegalMoveError as exc:
            self.say(str(exc), "yellow")
            return
        self.save()
        self._table_shown = False
        if self.coach is not None and decision_kind(before) != "forced":
            played = self.match.hands[before.hand_number - 1].history[index].text
            found = self._thinking(lambda: self._assess(before, played))
            self._keep(before.hand_number, index, found)
            self.show(remark_text(found, self.plain))

    # -----------------------------------------------------------------------------------------
    # The coach.

    def _assess(self, view: PlayerView, move: str) -> Assessment:
        assert self.coach is not None
        return self.coach.assess(view, move)

    def _thinking(self, work: Callable[[], _T]) -> _T:
        if self.plain or not self.console.is_terminal:
            return work()
        with self.console.status("The coach is thinking..."):
            return work()

    def _keep(self, hand_number: int, index: int, found: Assessment) -> None:
        if hand_number != self._remarks_hand:
            self._remarks = {}
            self._remarks_hand = hand_number
        self._remarks[index] = found

    def _switch_coach(self, arg: str | None) -> None:
        want = (self.coach is None) if arg is None else arg == "on"
        if want and self.coach is None:
            self.coach = Coach(seed=COACH_SEED)
        elif not want:
            self.coach = None
        if self.saved.meta.coach != (self.coach is not None):
            self.saved.meta = replace(self.saved.meta, coach=self.coach is not None)
            self.save()
        self.say("The coach is on: a remark after each of your decisions and a review after "
                 "each hand." if self.coach is not None else "The coach is off.")

    def _show_review(self) -> None:
        """The coach's review of the hand just finished (reusing the remarks made in it);
        nothing before the first deal, when there is no hand to review."""
        if self.coach is None or not self.match.hands or not self.match.hand.over:
            return
        number = len(self.match.hands)
        known = self._remarks if self._remarks_hand == number else {}
        hand = self.match.hand
        review = self._thinking(
            lambda: review_hand(hand, self.you, self._coach_now(), number=number, known=known)
        )
        self.show(render_review(review, self.plain))

    def _coach_now(self) -> Coach:
        assert self.coach is not None
        return self.coach

    def _sort(self, arg: str | None) -> None:
        meta = self.saved.meta
        new: SortOrder
        if arg == "rank":
            new = "rank"
        elif arg == "suit":
            new = "suit"
        else:
            new = "suit" if meta.sort == "rank" else "rank"
        self.saved.meta = replace(meta, sort=new)
        self.save()
        self.say(f"Sorting by {new}.")
        self._table_shown = False

    def _gin_move(self, command: Command, view: PlayerView) -> str | None:
        """``gin 7h`` is ``knock 7h`` when that leaves no deadwood; a bare ``gin`` finds the card.

        The engine still judges the knock; this only refuses a "gin" that would be a plain knock,
        so nobody knocks by accident.
        """
        card = command.card
        if card is None:
            gins = [
                m for m in view.legal_moves
                if Move.parse(m).code == KNOCK
                and deadwood_after_discard(view.hand_mask, _card_of(m)) == 0
            ]
            if len(gins) == 1:
                return gins[0]
            if not gins:
                if view.phase in ("discard", "last_chance_knock"):
                    self.say("No discard leaves you without deadwood: you cannot go gin now.",
                             "yellow")
                elif view.phase in ("opening", "last_chance"):
                    self.say("Take or pass the upcard first; after a take, 'gin 7h' discards "
                             "the 7h and lays down the rest.", "yellow")
                else:
                    self.say("Draw first; then 'gin 7h' discards the 7h and lays down the rest.",
                             "yellow")
                return None
            options = " or ".join(short_move(m).replace("k ", "gin ") for m in gins)
            self.say(f"Say which card to discard: {options}.", "yellow")
            return None
        held = view.hand_mask >> card & 1
        if held and card != view.taken and view.phase in ("discard", "last_chance_knock"):
            left = deadwood_after_discard(view.hand_mask, card)
            if left:
                shown = card_label(card, self.plain)
                # Suggest the knock only where the rules allow it (the knock limit, Oklahoma's
                # gin-only hands): never a command that would be refused in turn.
                knocks = any(Move.parse(m).code == KNOCK and _card_of(m) == card
                             for m in view.legal_moves)
                then = (f"to knock with it type '{short_move(Move.knock(card))}'" if knocks
                        else "nor may you knock with it now")
                self.say(f"Discarding the {shown} leaves {left} deadwood, so that is not gin; "
                         f"{then}.", "yellow")
                return None
        return Move.knock(card)

    # -----------------------------------------------------------------------------------------
    # Between hands and at the end.

    def _show_hand_end(self) -> None:
        number = len(self.match.hands)
        if self._shown_end == number:
            return
        view = self.view()
        assert view.result is not None
        explanation = explain_result(view.result, self.names, you=self.you)
        self.show(render_hand_end(view, self.names, explanation, plain=self.plain))
        self._show_revealed(number - 1)
        self._show_review()
        if not self.match.over:
            self._show_sheet()
        self._shown_end = number

    # -----------------------------------------------------------------------------------------
    # Sealed deals.

    def _raw(self, text: str) -> None:
        """A line shown exactly as written (client seeds are the person's own text)."""
        self.console.print(Text(text), soft_wrap=True, markup=False)

    def _show_revealed(self, n: int) -> None:
        sealer = self.saved.sealer
        if sealer is None:
            return
        # One plain line; the seeds themselves are one command away ('commitment').
        self.say(f"Hand {n + 1} was dealt from the deck sealed before it: nobody could change "
                 "it ('commitment' shows the details).")
        if not self.match.over:  # at the end the file moves; _finish names its new place
            self._raw(f"Check the deal: ginrummy verify {self.store.current}")

    def _show_revealed_details(self, n: int) -> None:
        """Hand ``n``'s revealed seal in full: server seed, commitment, client seed, nonce."""
        sealer = self.saved.sealer
        if sealer is None:
            return
        public = sealer.public(n)
        self.say(f"Hand {n + 1} was sealed: its server seed, revealed now, is "
                 f"{sealer.reveal(n)}.")
        self._raw(f"Commitment {public['commitment']}, client seed \"{public['client_seed']}\", "
                  f"nonce {public['nonce']}.")

    def _show_commitment(self, n: int) -> None:
        """The whole commitment of hand ``n`` (0-based) with what it covers."""
        sealer = self.saved.sealer
        if sealer is None or n < 0:
            self.say(f"{UNSEALED}.")
            return
        if n == len(self.match.hands) and n > 0 and self.match.hands[n - 1].over:
            self._show_revealed_details(n - 1)
        public = sealer.public(n)
        dealer = self.match.hands[n].dealer if n < len(self.match.hands) else self.match.next_dealer
        self.say(f"Hand {n + 1}: commitment {public['commitment']} "
                 f"({public['version']}, nonce {public['nonce']}, dealer seat {dealer}: "
                 f"{self.names[dealer]}).")
        if n == len(self.match.hands):  # not dealt yet: the client seed it will be dealt with
            seed, how = self._seed_for(n)
            self._raw(f"Your client seed: {seed} ({how}; 'seed TEXT' deals with your own).")

    def _seed_for(self, n: int) -> tuple[str, str]:
        """The client seed hand ``n`` will be dealt with, and where it comes from."""
        if n not in self._seeds:
            if self._session_seed is not None:
                self._seeds[n] = (self._session_seed, "from --client-seed")
            else:
                seed = offered_client_seed(n, self.saved.meta.derive_from)
                how = "derived from --seed" if self.saved.meta.reproducible else "drawn at random"
                self._seeds[n] = (seed, how)
        return self._seeds[n]

    def _show_seal(self, n: int) -> None:
        """Before dealing hand ``n`` (0-based): its commitment and the client seed to use."""
        sealer = self.saved.sealer
        if sealer is None or self._shown_seal == n:
            return
        dealer = self.match.next_dealer
        # One plain line; the commitment, the nonce and the seed are one command away.
        self.say(f"Hand {n + 1}: {with_verb(self.names[dealer], 'deal')} from a deck sealed "
                 "before the deal, so nobody can change it ('commitment' shows the details).")
        self._shown_seal = n

    def _seed_not_now(self) -> str:
        """The answer to ``seed TEXT`` when it cannot choose a seed: during a hand, or in a
        match whose hands are not sealed."""
        if self.saved.sealer is None:
            return f"{SEED_WORKS} {UNSEALED}, so there is no client seed to choose."
        dealt = len(self.match.hands)
        return f"{SEED_WORKS} Hand {dealt} is already dealt: type it before the next deal."

    def _set_seed(self, n: int, text: str | None) -> None:
        """``seed TEXT`` before hand ``n`` is dealt: its client seed, checked by the engine's
        rules (a bare ``seed`` shows the one it will be dealt with)."""
        if self.saved.sealer is None:
            self.say(self._seed_not_now(), "yellow")
            return
        if text is None:
            seed, how = self._seed_for(n)
            self._raw(f"Your client seed: {seed} ({how}).")
            return
        try:
            check_client_seed(text)
        except SealError as exc:
            message = str(exc)
            self.say(message[0].upper() + message[1:] + ".", "yellow")
            return
        self._seeds[n] = (text, "yours")
        self._raw(f"Your client seed for hand {n + 1}: {text}")

    def _deal(self) -> None:
        """Deal the next hand: from its sealed deal with the chosen client seed."""
        n = len(self.match.hands)
        client_seed = self._seed_for(n)[0] if self.saved.sealer is not None else None
        self.table.deal(client_seed=client_seed)
        self.save()
        self._table_shown = False

    def _show_sheet(self) -> None:
        rows, games = score_sheet(self.match, self.names, you=self.you)
        self.show(render_sheet(rows, games, self.names, self.match.rules, plain=self.plain))

    def _between_hands(self) -> None:
        if self.match.hands:
            self._show_hand_end()
            if self.tips is not None:
                self.say(FINAL_TIP, "green")
                self.tips = None
        n = len(self.match.hands)
        fresh = self._shown_seal != n
        self._show_seal(n)
        # The tip speaks of "the line above": it follows the seal's lines, once, and never a
        # later answer (the coach switched on, the sheet) at the same prompt.
        if (fresh and self.tips is not None and not self.match.hands
                and self.saved.sealer is not None):
            self.say(SEALED_TIP, "green")
        line = self.ask(deal_prompt(n + 1))
        try:
            command: Command | None = parse_command(line)
        except GinRummyError as exc:
            if line.split()[0].lower() == "coach":  # 'coach maybe': the parser says what fits
                self.say(str(exc), "yellow")
                return
            command = None
        between = self._COMMANDS[command.action].between if command is not None else None
        if command is None or between is None:
            self.say(self._not_between_hands(line, n, command), "yellow")
            return
        between(self, command, n)

    def _not_between_hands(self, line: str, n: int, command: Command | None) -> str:
        """The answer to a line that does nothing before hand ``n + 1`` is dealt: a command
        that needs a hand (a move, 'sort', 'moves', 'look') gets one short line; text that is
        no command is named, with what can be typed instead. Nothing is dealt or changed."""
        typed = repr(line.strip())
        if command is not None:
            return f"{typed}: no hand yet; press Enter to deal hand {n + 1}."
        said = f"{typed} is not a command."
        sealed = self.saved.sealer is not None
        words = [c.word for c in self._COMMANDS.values()
                 if c.between is not None and c.word is not None and (sealed or not c.sealed)]
        others = ", ".join(words[:-1]) + f" or {words[-1]}"
        return f"{said} Press Enter to deal hand {n + 1} or q to quit; or type {others}."

    def _coach_between(self, arg: str | None) -> None:
        self._switch_coach(arg)
        self._show_review()  # switched on: the finished hand's review at once

    #: Every command the parser knows, by its action: what it does during a hand and between
    #: hands, and the word the answer to anything else between hands offers for it, in this
    #: order. The one place that says what can be typed, and when.
    _COMMANDS: ClassVar[dict[Action, TableCommand]] = {
        "enter": TableCommand(lambda t, c, v: t._look(), lambda t, c, n: t._deal()),
        "quit": TableCommand(lambda t, c, v: _leave(), lambda t, c, n: _leave()),
        "sheet": TableCommand(lambda t, c, v: t._show_sheet(), lambda t, c, n: t._show_sheet(),
                              "sheet"),
        "rules": TableCommand(lambda t, c, v: t._show_rules(), lambda t, c, n: t._show_rules(),
                              "rules"),
        "commitment": TableCommand(lambda t, c, v: t._show_commitment(len(t.match.hands) - 1),
                                   lambda t, c, n: t._show_commitment(n), "commitment",
                                   sealed=True),
        "seed": TableCommand(lambda t, c, v: t.say(t._seed_not_now(), "yellow"),
                             lambda t, c, n: t._set_seed(n, c.arg), "'seed TEXT'", sealed=True),
        "coach": TableCommand(lambda t, c, v: t._switch_coach(c.arg),
                              lambda t, c, n: t._coach_between(c.arg), "coach"),
        "help": TableCommand(lambda t, c, v: t._show_help(), lambda t, c, n: t._show_help(),
                             "help"),
        "look": TableCommand(lambda t, c, v: t._look()),
        "moves": TableCommand(lambda t, c, v: t.say(moves_text(v))),
        "sort": TableCommand(lambda t, c, v: t._sort(c.arg)),
        "gin": TableCommand(lambda t, c, v: t._gin(c, v)),
        "move": TableCommand(lambda t, c, v: t._move(c)),
    }

    def _show_rules(self) -> None:
        self.show(render_rules(self.match.rules, self.plain))

    def _show_help(self) -> None:
        self.show(render_help(self.plain))

    def _finish(self) -> None:
        rows, games = score_sheet(self.match, self.names, you=self.you)
        self.say("The match is over.", "bold")
        self.show(render_sheet(rows, games, self.names, self.match.rules, plain=self.plain))
        self.say(match_outcome(self.match.score, self.names, self.you), "bold green")
        where = self.store.archive()
        self.say(f"The record of this match is kept in {where}.")
        if self.saved.sealer is not None:
            self._raw(f"Check every deal: ginrummy verify {where}")  # one piece, to copy


def _leave() -> NoReturn:
    """``q`` between hands: the loop saves and says where."""
    raise Quit


def _card_of(move: str) -> int:
    """The card of a ``discard``/``knock`` move in engine notation."""
    card = Move.parse(move).card
    assert card is not None, f"{move!r} names no card"
    return int(card)
