"""Yes-or-no questions before something that cannot be undone (reset, import, forget-me).

The buttons carry everything they need in their custom id (which question, who may
answer, until when), so a question still answers after a restart: in time it does what
was asked, or says why it can't; too late, it says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from cogs.utils.replies import answer, now, private, refuse, update
from i18n import N_, Language, Msg

QUESTION_SECONDS = 60
NEEDS_MANAGE_SERVER = N_("You need the **Manage Server** permission to do that.")
ALREADY_ANSWERED = N_("That question was already answered, so this click changed nothing.")
CANCEL = N_("Cancel")


@dataclass(frozen=True)
class Question:
    """One kind of question, as the feature that asks it declares it."""

    yes_label: Msg | None  # None: each question names it (a reset, what it forgets)
    cancelled: Msg
    expired: Msg
    for_managers: bool = True  # the answer is checked for Manage Server again
    harmless: frozenset[str] = frozenset()  # subjects whose yes destroys nothing: not red


# Custom ids already posted in messages: ttt-<kind>:<yes|no>:<asker>:<until>:<question>
# [:<subject>]. They must keep working: each feature's button matches its own kinds.
TEMPLATE = (
    r"ttt-(?P<kind>{kinds}):(?P<answer>yes|no):(?P<asker>[0-9]+)"
    r":(?P<until>[0-9]+):(?P<q>[0-9]+)(?::(?P<subject>[a-z0-9-]+))?"
)


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE.format(kinds="[a-z]+")
):
    """``subject``: what the question is about, when its kind alone does not say (the
    game whose memory a reset forgets); kept in the custom id, so it survives a restart.
    Each feature's :class:`Questions` registers a subclass of its own, bound to it."""

    questions: Questions  # the feature's questions, which answer its clicks

    def __init__(
        self,
        kind: str,
        answer: str,
        asker_id: int,
        until: int,
        question_id: int,
        subject: str | None = None,
    ) -> None:
        yes = answer == "yes"
        about = f":{subject}" if subject else ""
        question = self.questions.declared[kind]
        label = (question.yes_label or "") if yes else CANCEL  # said by Questions.ask
        super().__init__(
            discord.ui.Button(
                custom_id=f"ttt-{kind}:{answer}:{asker_id}:{until}:{question_id}{about}",
                label=str(label),
                style=(
                    discord.ButtonStyle.secondary
                    if not yes
                    else discord.ButtonStyle.primary
                    if subject in question.harmless
                    else discord.ButtonStyle.danger
                ),
            )
        )
        self.kind, self.answer, self.asker_id = kind, answer, asker_id
        self.until, self.question_id, self.subject = until, question_id, subject

    @property
    def question(self) -> Question:
        return self.questions.declared[self.kind]

    @property
    def expired(self) -> bool:
        return now() > self.until

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> AnswerButton:
        return cls(
            match["kind"],
            match["answer"],
            int(match["asker"]),
            int(match["until"]),
            int(match["q"]),
            match["subject"],
        )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.asker_id:
            await refuse(interaction, N_("Only the person who asked can answer this."))
            return False
        if self.question.for_managers and not interaction.permissions.manage_guild:
            await refuse(interaction, NEEDS_MANAGE_SERVER)  # it may have been taken away since
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.questions.answered(interaction, self)


Answered = Callable[[discord.Interaction, AnswerButton], Awaitable[None]]


class Questions:
    """A feature's questions: the kinds it declares, what answers them, and the open ones
    (their expiry, and anything kept until they are answered)."""

    def __init__(self, declared: dict[str, Question], answered: Answered) -> None:
        self.declared = declared
        self.answered = answered
        # the clicks on this feature's questions, and no other's: a class of its own
        self.button: type[AnswerButton] = type(
            "AnswerButton",
            (AnswerButton,),
            {"questions": self},
            template=TEMPLATE.format(kinds="|".join(map(re.escape, declared))),
        )
        self._expiries: dict[int, asyncio.Task] = {}
        self._kept: dict[int, Any] = {}
        # questions answered, until their time is up: a second click (a quick double
        # click, or a client that has not redrawn) is told, and does nothing
        self._answered: dict[int, int] = {}

    async def ask(
        self,
        interaction: discord.Interaction,
        kind: str,
        text: str,
        *,
        keep: Any = None,
        subject: str | None = None,
        yes: Msg | None = None,
    ) -> None:
        """Ask privately, with the two buttons; ``keep`` is handed back on the answer (in
        this process), ``subject`` is on the buttons (see :class:`AnswerButton`); ``yes``:
        the yes button's label, if the question's kind has none."""
        until = int(now()) + QUESTION_SECONDS
        lang = private(interaction)
        view = discord.ui.View(timeout=None)
        for reply in ("yes", "no"):
            button = self.button(kind, reply, interaction.user.id, until, interaction.id, subject)
            label = (yes or self.declared[kind].yes_label) if reply == "yes" else CANCEL
            button.item.label = lang.say(label)
            view.add_item(button)
        if keep is not None:
            self._kept[interaction.id] = keep
        await answer(interaction, private=True, content=text, view=view)
        self._expiries[interaction.id] = asyncio.create_task(self._expire(interaction, kind, lang))

    async def settle(
        self, interaction: discord.Interaction, button: AnswerButton
    ) -> tuple[bool, Any]:
        """Close the question: whether to go ahead, and what was kept for it (``None``
        after a restart). An expired, cancelled or already answered question is answered
        here."""
        moment = now()
        for question_id in [q for q, until in self._answered.items() if until < moment]:
            del self._answered[question_id]
        if button.question_id in self._answered:
            await refuse(interaction, ALREADY_ANSWERED)
            return False, None
        self._answered[button.question_id] = button.until
        expiry = self._expiries.pop(button.question_id, None)
        if expiry is not None:
            expiry.cancel()
        kept = self._kept.pop(button.question_id, None)
        lang = private(interaction)
        if button.expired:
            await update(interaction, content=lang.say(button.question.expired), view=None)
            return False, None
        if button.answer == "no":
            await update(interaction, content=lang.say(button.question.cancelled), view=None)
            return False, None
        return True, kept

    def close(self) -> None:
        # The bot is closing: pending expiry edits would find the HTTP session gone.
        for task in self._expiries.values():
            task.cancel()
        self._expiries.clear()

    async def _expire(self, question: discord.Interaction, kind: str, lang: Language) -> None:
        """Show the question as expired when its time is up (while this process lives;
        after a restart, a late click is told instead)."""
        await asyncio.sleep(QUESTION_SECONDS)
        self._expiries.pop(question.id, None)
        self._kept.pop(question.id, None)
        with contextlib.suppress(discord.HTTPException):  # dismissed by the asker: fine
            await question.edit_original_response(
                content=lang.say(self.declared[kind].expired), view=None
            )
