"""Yes-or-no questions before something that cannot be undone (reset, import, forget-me).

The buttons carry everything they need in their custom id (which question, who may
answer, until when), so a question still answers after a restart: in time it does what
was asked, or says why it can't; too late, it says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from dataclasses import dataclass
from typing import Any

import discord

from i18n import N_, Language, Msg

from .replies import answer, private, refuse, update

QUESTION_SECONDS = 60
NEEDS_MANAGE_SERVER = N_("You need the **Manage Server** permission to do that.")
ALREADY_ANSWERED = N_("That question was already answered, so this click changed nothing.")
CANCEL = N_("Cancel")


def now() -> float:
    return discord.utils.utcnow().timestamp()  # the clock discord.py (and tests) use


@dataclass(frozen=True)
class Question:
    cog: str  # the cog whose on_answer handles it
    yes_label: Msg | None  # None: each question names it (a reset, what it forgets)
    cancelled: Msg
    expired: Msg
    for_managers: bool = True  # the answer is checked for Manage Server again


# answers that destroy nothing: their yes is not shown as a danger
HARMLESS = {("import", "merge")}

QUESTIONS = {
    "reset": Question(
        "Admin",
        None,
        N_("Cancelled: I forgot nothing."),
        N_("No answer in time: I forgot nothing."),
    ),
    "import": Question(
        "Admin",
        N_("Import"),
        N_("Cancelled: nothing was imported."),
        N_("No answer in time: nothing was imported."),
    ),
    "erase": Question(
        "Admin",
        N_("Delete everything"),
        N_("Cancelled: nothing was deleted."),
        N_("No answer in time: nothing was deleted."),
    ),
    "forget": Question(
        "TicTacToe",
        N_("Delete my games"),
        N_("Cancelled: nothing was deleted."),
        N_("No answer in time: nothing was deleted."),
        for_managers=False,
    ),
}


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ttt-(?P<kind>reset|import|erase|forget):(?P<answer>yes|no):(?P<asker>[0-9]+)"
    r":(?P<until>[0-9]+):(?P<q>[0-9]+)(?::(?P<subject>[a-z0-9-]+))?",
):
    """``subject``: what the question is about, when its kind alone does not say (the
    game whose memory a reset forgets); kept in the custom id, so it survives a restart."""

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
        label = (QUESTIONS[kind].yes_label or "") if yes else CANCEL  # said by Questions.ask
        super().__init__(
            discord.ui.Button(
                custom_id=f"ttt-{kind}:{answer}:{asker_id}:{until}:{question_id}{about}",
                label=str(label),
                style=(
                    discord.ButtonStyle.secondary
                    if not yes
                    else discord.ButtonStyle.primary
                    if (kind, subject) in HARMLESS
                    else discord.ButtonStyle.danger
                ),
            )
        )
        self.kind, self.answer, self.asker_id = kind, answer, asker_id
        self.until, self.question_id, self.subject = until, question_id, subject

    @property
    def question(self) -> Question:
        return QUESTIONS[self.kind]

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
        await interaction.client.get_cog(self.question.cog).on_answer(interaction, self)


class Questions:
    """A cog's open questions: their expiry, and anything kept until they are answered."""

    def __init__(self) -> None:
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
            button = AnswerButton(kind, reply, interaction.user.id, until, interaction.id, subject)
            label = (yes or QUESTIONS[kind].yes_label) if reply == "yes" else CANCEL
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
                content=lang.say(QUESTIONS[kind].expired), view=None
            )
