"""Spoken answers for tasks: the list, a summary, and added, completed, updated, deleted."""

from __future__ import annotations

from collections import Counter
from datetime import date
from typing import Any

from assistant.dialogue_state import Dialogue
from assistant.language.dates import find_when
from assistant.language.patterns import rx
from assistant.language.slots import noted_reminder, noted_time
from assistant.models.embedded.answers import due_this_week
from assistant.models.embedded.scene import Item, Scene
from assistant.models.embedded.topic import NO_DATE
from assistant.models.embedded.write_tools import WRITE_TOOLS
from assistant.ordering import spoken_tasks
from assistant.schema import ToolResult
from assistant.speech import (
    count,
    dated_day,
    due_day,
    join_and,
    number,
    parse_day,
    percent,
    spoken_day,
    spoken_list,
)

_WANTS_COMPLETED = rx(r"\b(?:completed|done|finished)\b")
_WANTS_SUMMARY = rx(
    r"\b(?:summary|summari[sz]e|progress|how am i doing|how i'm doing|how i am doing|stats"
    r"|statistics|completion rate|how productive|how am i getting on)\b"
)


# "what's due and when?", "when are they all due?": each to-do's day asked.
_WANTS_DAYS = rx(r"\bwhen\b.*\bdue\b|\bdue\b.*\bwhen\b")


def title(item: Item | None) -> str:
    if item is None:
        return "that task"
    return str(item.get("title") or "that task")


def _split(result: ToolResult) -> tuple[list[Item], list[Item]]:
    tasks = [t for t in result.result.get("tasks") or [] if isinstance(t, dict)]
    pending = [t for t in tasks if t.get("status") != "completed"]
    done = [t for t in tasks if t.get("status") == "completed"]
    return pending, done


def _details(pending: list[Item], scene: Scene) -> list[str]:
    """One sentence on what needs attention: overdue or soon due, and high priority."""
    today = scene.now.date()
    notes: list[str] = []
    dated = sorted(
        ((day, t) for t in pending if (day := parse_day(t.get("due_on"))) is not None),
        key=lambda pair: pair[0],
    )
    # Several overdue are counted: the first of them named alone ("Return the library books
    # is overdue") said it was the one, with "Pay the water bill" overdue as well.
    late = sum(1 for day, _ in dated if day < today)
    if late > 1:
        notes.append(f"{number(late)} are overdue")
    elif dated and (dated[0][0] - today).days <= 7:
        day, task = dated[0]
        if day < today:
            notes.append(f"{title(task)} is overdue")
        else:
            notes.append(f"{title(task)} is due {due_day(day, today)}")
    high = [t for t in pending if t.get("priority") == "high"]
    if len(high) == 1 and notes and late <= 1 and dated and dated[0][1] is high[0]:
        notes[-1] += " and high priority"  # one task: not its name twice
    elif len(high) == 1:
        notes.append(f"{title(high[0])} is high priority")
    elif high:
        notes.append(f"{number(len(high))} are high priority")
    return [join_and(notes)[:1].upper() + join_and(notes)[1:] + "."] if notes else []


def _days_due(pending: list[Item], scene: Scene) -> list[str]:
    """Each pending to-do's day, when the days are asked ("what's due and when?")."""
    today = scene.now.date()
    days = [
        f"{title(task)} is {'overdue' if day < today else 'due ' + due_day(day, today)}"
        for task in pending
        if (day := parse_day(task.get("due_on"))) is not None
    ]
    undated = [title(task) for task in pending if parse_day(task.get("due_on")) is None]
    if undated:
        days.append(f"{spoken_list(undated)} {'has' if len(undated) == 1 else 'have'} no due date")
    text = join_and(days)
    return [text[:1].upper() + text[1:] + "."] if text else []


def _day_of_the_tasks(scene: Scene) -> date | None:
    """The one day the to-dos are asked of: said in the ask for them ("what tasks are
    due on thursday"), or the day of the visits asked with them ("what's on for
    wednesday, appointments and to-dos both"); None for no day, a span, or a change."""
    if any(intent.writes for intent in scene.intents):
        return None
    own = [i.clause for i in scene.intents if i.kind == "tasks"]
    if any(_NOT_DUE.search(clause) for clause in own):
        return None  # "what tasks did I add today?": when they were made, not their day
    visits = [i.clause for i in scene.intents if i.kind == "appointments"]
    for clauses in ([c for c in own if "due" in c], visits if own else []):
        days = {day for clause in clauses if (day := _one_day(clause, scene)) is not None}
        if len(days) == 1:
            return days.pop()
        if days:
            return None
    return None


def _one_day(clause: str, scene: Scene) -> date | None:
    if not _A_DAY_WORD.search(clause):
        return None  # most asks name no day: the date reading is not paid for
    said = find_when(clause, scene.now)
    if said is None or said.day is None or said.vague_day or said.day_implied:
        return None
    return said.day


_NOT_DUE = rx(
    r"\b(?:add|added|create|created|made|make|complete|completed|finish|finished|done|tick"
    r"|ticked|mark|marked|delete|deleted|remove|removed|change|changed|overdue)\b"
)
_A_DAY_WORD = rx(
    r"\b(?:today|tomorrow|tonight|(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{1,2}(?:st|nd"
    r"|rd|th)|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\b"
)


def _due_on(pending: list[Item], day: date, scene: Scene) -> str:
    """The pending to-dos due on `day`, or that none is."""
    today = scene.now.date()
    spoken = spoken_day(day, today)
    spoken = spoken if spoken in ("today", "tomorrow") else f"on {spoken}"
    on_day = [t for t in pending if parse_day(t.get("due_on")) == day]
    if not on_day:
        return f"No tasks are due {spoken}."
    return f"Due {spoken}: {spoken_list([title(t) for t in on_day])}."


def _asked(scene: Scene) -> str:
    """The words that asked for the task list ("don't mark it done yet, just tell me
    what's on my list" asks for what is pending: "done" is in what was held back)."""
    clauses = [i.clause for i in scene.intents if i.kind in ("tasks", "task_summary")]
    if not clauses and any(intent.writes for intent in scene.intents):
        # "delete the eye exam task unless it's already done": the list was read for the
        # change, not asked for in words; "done" there says nothing of which to tell.
        return ""
    return " ".join(clause for clause in clauses if clause) or scene.said


_DUE_THIS_WEEK = rx(r"\bdue this week\b")


def listing(result: ToolResult, scene: Scene) -> list[str]:
    pending, done = _split(result)
    if _WANTS_SUMMARY.search(scene.said):
        return summary(pending, done, scene)
    if _WANTS_COMPLETED.search(_asked(scene)) and "pending" not in scene.said:
        if not done:
            return ["You haven't completed any tasks yet."]
        names = spoken_list([title(t) for t in done])
        return [f"You've completed {count(len(done), 'task')}: {names}."]
    if not pending and not done:
        return ["You don't have any tasks."]
    if not pending:
        return [f"You're all caught up: no pending tasks, and {number(len(done))} completed."]
    pending = spoken_tasks(pending)
    if (" no " in scene.said or "without" in scene.said) and NO_DATE.search(scene.said):
        # "which of them still has no date on it?": those, and only those
        undated = [title(t) for t in pending if parse_day(t.get("due_on")) is None]
        if not undated:
            return ["Every one of your pending tasks has a due date."]
        return [f"{spoken_list(undated)} {'has' if len(undated) == 1 else 'have'} no due date."]
    if (day := _day_of_the_tasks(scene)) is not None:
        # "on thursday, what do I have and what tasks are due": the to-dos of that day
        # (before, every pending one was read out).
        return [_due_on(pending, day, scene)]
    if "overdue" in (asked := _asked(scene)) and len(scene.intents) > 1:
        # "what's overdue on my list and how much do I owe?": those, as asked alone
        late = [t for t in pending if (d := parse_day(t.get("due_on"))) and d < scene.now.date()]
        if not late:
            return ["Nothing on your list is overdue."]
        return [
            f"{spoken_list([title(t) for t in late])} {'is' if len(late) == 1 else 'are'} overdue."
        ]
    if "this week" in asked and _DUE_THIS_WEEK.search(asked):
        # "what's due this week and …": to Sunday, as asked alone (was: the whole list)
        return [due_this_week(pending, scene.now.date())]
    names = spoken_list([title(t) for t in pending])
    sentences = [f"You have {count(len(pending), 'pending task')}: {names}."]
    if "due" in scene.said and _WANTS_DAYS.search(scene.said):
        sentences.extend(_days_due(pending, scene))
    else:
        sentences.extend(_details(pending, scene))
    if done and "pending" not in scene.said:
        sentences.append(f"You've also completed {number(len(done))}.")
    return sentences


def summary(pending: list[Item], done: list[Item], scene: Scene) -> list[str]:
    """Total, completed, pending, completion rate, and the pending ones by priority."""
    total = len(pending) + len(done)
    if total == 0:
        return ["You don't have any tasks yet, so there's nothing to summarize."]
    sentences = [
        f"You have {count(total, 'task')} in total: {number(len(done))} completed and "
        f"{number(len(pending))} pending, a completion rate of {percent(len(done), total)}."
    ]
    if pending:
        by_priority = Counter(str(t.get("priority") or "normal") for t in pending)
        parts = [
            f"{number(by_priority[level])} {'is' if by_priority[level] == 1 else 'are'} {level}"
            f" priority"
            for level in ("high", "normal", "low")
            if by_priority[level]
        ]
        sentences.append(f"Of the pending ones, {join_and(parts)}.")
        today = scene.now.date()
        overdue = [
            t for t in pending if (day := parse_day(t.get("due_on"))) is not None and day < today
        ]
        if overdue:
            verb = "is" if len(overdue) == 1 else "are"
            sentences.append(f"{number(len(overdue)).capitalize()} {verb} overdue.")
    else:
        sentences.append("Everything is done. Nice work!")
    return sentences


def added(result: ToolResult, scene: Scene) -> list[str]:
    task = result.result
    text = f"I added a task: {title(task)}"
    if (due := parse_day(task.get("due_on"))) is not None:
        text += f", due {dated_day(due, scene.now.date())}"
    if task.get("priority") == "high":
        text += ", marked high priority"
    elif task.get("priority") == "low":
        text += ", marked low priority"
    sentences = [text + "."]
    if (remind := noted_reminder(result.call.arguments.get("description"))) is not None:
        # "…by thursday and remind me wednesday": the reminder's day is not dropped unsaid.
        sentences.append(
            f"A task keeps one day, so its note says to remind you "
            f"{dated_day(remind, scene.now.date())}."
        )
    if said := noted_time(result.call.arguments.get("description")):
        # "…at quarter to nine on thursday": the time is not dropped unsaid.
        sentences.append(f"A task keeps a day, not a time, so its note says {said}.")
    return sentences


def _answered_of_another(result: ToolResult, scene: Scene, doing: str) -> list[str]:
    """When a write's answer is another task than the one it names (a 200 whose body
    is for another item): what became of the one asked is unknown, and said so."""
    asked_id = result.call.arguments.get("task_id")
    answered = result.result.get("id") if isinstance(result.result, dict) else None
    if asked_id is None or answered in (None, asked_id):
        return []
    asked = scene.earlier(asked_id)
    name = title(asked) if asked is not None else "that task"
    return [
        f"I asked the task system to {doing} {name}, but it answered about another task, "
        "so I can't confirm it went through. Ask me in a moment and I'll check."
    ]


def done_said(scene: Scene) -> str:
    """ "Done. " before the first change told, unless a write of the turn did not go
    through: "Done." would say all that was asked was done ("Done. I marked Buy groceries as
    complete. … I couldn't mark Renew car insurance as complete")."""
    if any(not r.ok and r.call.tool_name in WRITE_TOOLS for r in scene.results):
        return ""
    return "Done. "


def completed(result: ToolResult, scene: Scene) -> list[str]:
    if other := _answered_of_another(result, scene, "complete"):
        return other
    task = result.result
    before = scene.earlier(task.get("id"))
    if before is not None and before.get("status") == "completed":
        return [f"{title(task)} was already marked complete."]
    status = task.get("status")
    if status is not None and status != "completed":
        # The CRM answered, but its reply holds the task otherwise: said as it holds it.
        return [f"The system still shows {title(task)} as {status}, so I can't confirm it's done."]
    # Several completed in one turn: "Done" once, and what is left after the last.
    siblings = [r for r in scene.results if r.ok and r.call.tool_name == "crm.completeTask"]
    first = siblings[0] is result if siblings else True
    last = siblings[-1] is result if siblings else True
    sentences = [
        f"{done_said(scene)}I marked {title(task)} as complete."
        if first
        else f"I also marked {title(task)} as complete."
    ]
    listed = [r for r in scene.results if r.ok and r.call.tool_name == "crm.listTasks"]
    if listed and last:
        pending, _ = _split(listed[-1])
        finished = {str(r.result.get("id")) for r in siblings if isinstance(r.result, dict)}
        # One added this turn after the list was read is pending too ("mark all done and
        # add a task to call mom": not "That was your last pending task").
        known = {str(t.get("id")) for t in pending}
        added = [
            r.result
            for r in scene.results
            if r.ok
            and r.call.tool_name == "crm.addTask"
            and isinstance(r.result, dict)
            and str(r.result.get("id")) not in known
        ]
        remaining = [t for t in [*pending, *added] if str(t.get("id")) not in finished]
        left = len(remaining)
        if left and _WANTS_REST.search(scene.said):
            names = spoken_list([title(t) for t in spoken_tasks(remaining)])
            sentences.append(f"Still to do: {names}.")
        else:
            sentences.append(
                "That was your last pending task."
                if left == 0
                else f"You have {count(left, 'pending task')} left."
            )
    return sentences + _instead_of_earlier(task, scene)


_WANTS_REST = rx(r"\b(?:left|remaining|what else|still to do|rest)\b")


def completion_tells_the_rest(scene: Scene) -> bool:
    """A to-do was completed this turn and what is left was asked: the completion says
    it ("Still to do: …"), from the list read with it (which still held the done one)."""
    return (
        any(r.ok and r.call.tool_name == "crm.completeTask" for r in scene.results)
        and _WANTS_REST.search(scene.said) is not None
    )


_CORRECTING = rx(r"\b(?:meant|not that|other one|wrong one|instead|no wait)\b")


def _instead_of_earlier(task: Item, scene: Scene) -> list[str]:
    """After "no, I meant the other one": what became of the task completed just before."""
    action = scene.dialogue.last_action
    if (
        action is None
        or action.tool != "crm.completeTask"
        or not _CORRECTING.search(scene.original)
    ):
        return []
    earlier = action.after or action.before
    if earlier is None or earlier.get("id") == task.get("id"):
        return []
    return [
        f"{title(earlier)} is still marked complete, as I can't reopen a task from here; "
        "tell me if you'd like me to add it again."
    ]


def updated(result: ToolResult, scene: Scene) -> list[str]:
    task = result.result
    changes = result.call.arguments
    if other := _answered_of_another(result, scene, "update"):
        return other
    before = scene.earlier(task.get("id"))
    old_name = title(before) if before is not None else title(task)
    sentences = []
    otherwise = _held_otherwise(task, changes, scene)
    if otherwise:
        # The body shows the task as before (an older version) or otherwise than asked:
        # said as it shows it, not claimed done.
        return otherwise
    asked_title = changes.get("title")
    if isinstance(asked_title, str) and _words_of(asked_title) != _words_of(task.get("title")):
        # Answered with the old title (an older version) or another: not told renamed.
        return [
            f"The task system shows it as {title(task)}, not {asked_title} as I asked, "
            "so I can't confirm the new name."
        ]
    if "title" in changes:
        if before is not None and title(before) != title(task):
            sentences.append(f"I renamed {old_name} to {title(task)}.")
        else:
            sentences.append(f"The task is now called {title(task)}.")
    if "priority" in changes:
        sentences.append(
            f"{title(task)} is now {task.get('priority', changes['priority'])} priority."
        )
    if "due_on" in changes and (due := parse_day(task.get("due_on"))) is not None:
        sentences.append(f"{title(task)} is now due {dated_day(due, scene.now.date())}.")
    if said := noted_time(changes.get("description")):
        # "…to friday at 5pm": the time is not dropped unsaid.
        sentences.append(f"A task keeps a day, not a time, so its note says {said}.")
    elif (remind := noted_reminder(changes.get("description"))) is not None:
        # "…and remind me wednesday", a turn after it was added due thursday: the day kept.
        due = parse_day(task.get("due_on"))
        kept = f" stays due {dated_day(due, scene.now.date())}" if due else ""
        sentences.append(
            f"A task keeps one day, so {title(task)}{kept} and its note says to remind you "
            f"{dated_day(remind, scene.now.date())}."
        )
    elif "description" in changes and (note := str(changes.get("description") or "").strip()):
        # (the note said back: "what did it say?" is answered before it is asked)
        sentences.append(f'I added that note to {title(task)}: "{note}".')
    elif "description" in changes:
        sentences.append(f"I added that note to {title(task)}.")
    if task.get("status") == "completed" and ("due_on" in changes or "priority" in changes):
        # "move call the pharmacy to friday" of a to-do already done: it stays done, and
        # was told as if it were on the list again.
        sentences.append(
            "It's already marked done, though, so it stays off your list of things to do."
        )
    return sentences or [f"I updated {title(task)}."]


# The fields of a to-do a change sets that it can already hold as asked.
_HELD_AS_ASKED = ("due_on", "priority")


def already_as_asked(arguments: dict[str, Any], task: Item, dialogue: Dialogue) -> bool:
    """Whether a change of a to-do's day or level asks again for the change the last
    write of the conversation made to it, which it holds ("make the groceries due
    thursday" said again, the answer not heard: it was sent again, one change written
    twice). A value it held before the conversation is set as asked, as ever."""
    asked = {key: value for key, value in arguments.items() if key != "task_id"}
    if not asked or any(key not in _HELD_AS_ASKED for key in asked):
        return False
    if not any(
        action.tool == "crm.updateTask"
        and action.arguments.get("task_id") == task.get("id")
        and all(action.arguments.get(key) == value for key, value in asked.items())
        for action in dialogue.last_turn_actions
    ):
        return False
    return all(
        isinstance(value, str) and str(task.get(key) or "").lower() == value.lower()
        for key, value in asked.items()
    )


def already_said(task: Item, arguments: dict[str, Any], scene: Scene) -> str:
    """What a to-do already holds as asked, said so: nothing was changed."""
    held = []
    if (due := parse_day(arguments.get("due_on"))) is not None:
        held.append(f"due {dated_day(due, scene.now.date())}")
    if arguments.get("priority"):
        held.append(f"{arguments['priority']} priority")
    return f"{title(task)} is already {join_and(held)}, so nothing needed to change."


def _words_of(text: object) -> list[str]:
    return "".join(c if c.isalnum() else " " for c in str(text or "").lower()).split()


def _held_otherwise(task: dict[str, Any], changes: dict[str, Any], scene: Scene) -> list[str]:
    """For each priority or due day asked that the CRM's answer holds otherwise: what it
    shows, said as not what was asked."""
    said: list[str] = []
    asked = changes.get("priority")
    held = task.get("priority")
    if isinstance(asked, str) and isinstance(held, str) and held.lower() != asked.lower():
        said.append(
            f"The task system shows {title(task)} as {held} priority, not {asked} as I asked."
        )
    if "due_on" in changes and "due_on" in task:
        want, have = parse_day(changes.get("due_on")), parse_day(task.get("due_on"))
        if want is not None and have != want:
            today = scene.now.date()
            shown = f"due {dated_day(have, today)}" if have is not None else "with no due day"
            said.append(
                f"The task system shows {title(task)} {shown}, not due "
                f"{dated_day(want, today)} as I asked."
            )
    return said


def deleted(result: ToolResult, scene: Scene) -> list[str]:
    task_id = result.result.get("task_id") or result.call.arguments.get("task_id")
    task = scene.earlier(task_id)
    if task is None:
        return ["I deleted that task."]
    return [f"I deleted the task {title(task)}."]
