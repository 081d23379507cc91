"""Spoken answers to qualified questions (assistant.models.embedded.questions).

Each says what was asked about first, from the data: the haircut's day and place, a
cancelled or past visit, what an invoice was and whether it is paid, which tasks are
overdue or urgent, and why a charge is there.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta

from assistant.dialogue_state import Item
from assistant.language.dates import find_when
from assistant.language.lexicon import MONTHS
from assistant.ordering import spoken_appointments, spoken_tasks
from assistant.resolve import SAID_FOR
from assistant.speech import (
    calendar_date,
    count,
    due_day,
    lower_first,
    money,
    parse_day,
    parse_moment,
    short_clock,
    spoken_datetime,
    spoken_day,
    spoken_list,
)


def _service(item: Item) -> str:
    return lower_first(str(item.get("service") or "appointment"))


# The invoice issued last ("my last invoice", "my latest bill"), as a question's subject.
LATEST = "latest invoice"


def _matches(item: Item, subject: str, field: str) -> bool:
    if not subject:
        return True
    said = subject.lower().replace(" ", "")
    value = str(item.get(field) or "").lower().replace(" ", "")
    return said in value or value in said


def _when(item: Item, now: datetime) -> str:
    moment = parse_moment(item.get("starts_at"))
    return spoken_datetime(moment, now) if moment else "a time I can't read"


def _on_when(item: Item, now: datetime) -> str:
    """ "tomorrow at 10 AM", "on Tuesday, March 3 at 2:00 PM" (never "on tomorrow")."""
    spoken = _when(item, now)
    return spoken if spoken.startswith(("today", "tomorrow", "yesterday")) else f"on {spoken}"


def about_appointment(
    appointments: Sequence[Item], subject: str, aspect: str, now: datetime, item: Item | None
) -> str:
    """When, where or what became of an appointment (or the one after the one in focus)."""
    ordered = spoken_appointments(appointments)
    if aspect == "after":
        upcoming = [a for a in ordered if a.get("status") != "cancelled"]
        named = None
        if item is None and subject:
            # "the appointment after my cleaning": counted from the first of that service
            named = next((a for a in upcoming if _matches(a, subject, "service")), None)
            if named is None:
                return none_booked(ordered, subject, now)
        anchor = item or named
        if anchor is not None:
            later = [a for a in upcoming if str(a.get("starts_at")) > str(anchor.get("starts_at"))]
        else:
            later = upcoming[1:]
        if not later:
            return "That's the last one: there's nothing booked after it."
        lead = f"After your {_service(named)}" if named is not None else "After that"
        return f"{lead}, you have your {_service(later[0])} {_on_when(later[0], now)}."
    if aspect == "recent":
        past = [a for a in ordered if _is_past(a, now) and a.get("status") != "cancelled"]
        if not past:
            return "I don't see any past appointments on your account."
        visits = [
            f"{_article(_service(a))} {_service(a)} on {_day(a, now)}" for a in reversed(past[-3:])
        ]
        return f"Your recent appointments: {spoken_list(visits)}."
    found = [a for a in ordered if _matches(a, subject, "service")]
    if aspect == "status" and item is not None:
        # "so it's definitely cancelled?": that one, not another of the same service.
        found = [a for a in found if a.get("id") == item.get("id")] or found
    if not found:
        return none_booked(ordered, subject, now)
    ahead = [a for a in found if not _is_past(a, now) and a.get("status") != "cancelled"]
    cancelled = [a for a in found if a.get("status") == "cancelled"]
    past = [a for a in found if _is_past(a, now) and a.get("status") != "cancelled"]
    if aspect == "past" and past:
        last = past[-1]
        return f"Your last {_service(last)} was {_on_when(last, now)}."
    if aspect == "past" and ahead:
        # "when was my last cleaning", none had yet: said so, then the one coming up (was:
        # "Your dental cleaning is on Wednesday…", as if that were the one asked about)
        first = ahead[0]
        return (
            f"I don't see an earlier {_service(first)} on your account. Your next one is "
            f"{_on_when(first, now)}."
        )
    if aspect == "status" and cancelled and not ahead:
        last = cancelled[-1]
        return (
            f"Your {_service(last)} {_on_when(last, now)} was cancelled. "
            "Nothing else is booked for it."
        )
    if ahead:
        first = ahead[0]
        location = str(first.get("location") or "")
        if aspect == "where":
            place = f"at {location}" if location else "at a place I don't have on file"
            return f"Your {_service(first)} is {place}, {_on_when(first, now)}."
        if aspect == "length":
            return _length(first, now)
        if aspect == "who":
            where = f", at {location}" if location else ""
            return (
                f"I don't have who your {_service(first)} is with; a booking here holds the "
                f"service, the time and the place. It's {_on_when(first, now)}{where}."
            )
        if aspect == "status":
            # "did you cancel my haircut?": it is still booked, said as such.
            return (
                f"Your {_service(first)} {_on_when(first, now)} is still booked; it hasn't "
                "been cancelled."
            )
        where = f", at {location}" if location else ""
        more = f" You have {count(len(ahead) - 1, 'more')} after it." if len(ahead) > 1 else ""
        if 1 < len(ahead) <= 3:
            # "when are my physical therapy sessions" after a second was booked: when the
            # others are too, not only how many
            others = " and ".join(_on_when(a, now) for a in ahead[1:])
            more = f" You have {count(len(ahead) - 1, 'more')} after it, {others}."
        return f"Your {_service(first)} is {_on_when(first, now)}{where}.{more}"
    if cancelled:
        last = cancelled[-1]
        return f"Your {_service(last)} {_on_when(last, now)} was cancelled."
    last = past[-1]
    if item is not None and len(ordered) == 1:
        # "what time was it" after "when did I last get my hair cut": that visit (only it
        # is in view, not whether another is booked)
        return f"Your last {_service(last)} was {_on_when(last, now)}."
    return f"You have no {_service(last)} coming up. Your last one was {_on_when(last, now)}."


def none_booked(appointments: Sequence[Item], subject: str, now: datetime) -> str:
    """None of `subject` among `appointments`: said so, and what is coming up named by its
    service only (another visit's day is no answer to "when is my massage?"). "On your
    account" only when the past was read too: a visit had is on it, though none is booked."""
    what = subject.lower() or "appointment"
    ordered = spoken_appointments(appointments)
    upcoming = [a for a in ordered if a.get("status") != "cancelled" and not _is_past(a, now)]
    history = len(upcoming) < len(ordered)
    head = (
        f"I don't see {_article(what)} {what} on your account."
        if history
        else f"You don't have {_article(what)} {what} booked."
    )
    services = list(dict.fromkeys(_service(a) for a in upcoming))
    if not services:
        return head
    named = spoken_list([f"{_article(s)} {s}" for s in services])
    return f"{head} What you have coming up is {named}."


def _length(item: Item, now: datetime) -> str:
    """ "Your haircut is 45 minutes: Friday, March 7 from 2:30 to 3:15 PM." """
    starts, ends = parse_moment(item.get("starts_at")), parse_moment(item.get("ends_at"))
    if starts is None or ends is None or ends <= starts:
        return f"I don't have an end time for your {_service(item)}, {_on_when(item, now)}."
    minutes = round((ends - starts).total_seconds() / 60)
    hours, rest = divmod(minutes, 60)
    length = " and ".join(
        part
        for part in (count(hours, "hour") if hours else "", count(rest, "minute") if rest else "")
        if part
    )
    ends_local = ends.astimezone(now.tzinfo)
    return (
        f"Your {_service(item)} is booked for {length}: {_on_when(item, now)}, "
        f"ending at {short_clock(ends_local)}."
    )


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _is_past(item: Item, now: datetime) -> bool:
    if item.get("status") == "past":
        return True
    moment = parse_moment(item.get("starts_at"))
    return moment is not None and moment < now


def _day(item: Item, now: datetime) -> str:
    moment = parse_moment(item.get("starts_at"))
    if moment is None:
        return "a day I can't read"
    return calendar_date(moment.astimezone(now.tzinfo).date(), now.date())


def about_invoice(invoices: Sequence[Item], subject: str, aspect: str, now: datetime) -> str:
    """What an invoice came to, and whether it is paid."""
    found = [i for i in invoices if _matches(i, subject, "description")]
    if subject == LATEST:
        # "how much was my last invoice": the one issued last, paid or not.
        found = sorted(invoices, key=_issued)[-1:]
        if not found:
            return "I don't see any invoices on your account yet."
    elif subject == "previous":
        # "the one before that": the invoice issued before the latest one.
        ordered = sorted(invoices, key=_issued)
        found = ordered[-2:-1]
        subject = "the one before"
    elif subject.lower() in MONTHS:
        # "the invoice from december": issued that month, the latest such.
        month = MONTHS.index(subject.lower()) + 1
        found = [i for i in invoices if (d := parse_day(i.get("issued_on"))) and d.month == month]
        if not found:
            return f"I don't see an invoice from {subject.capitalize()} on your account."
    if aspect == "paid" and subject == "last":
        paid = sorted((i for i in invoices if i.get("status") == "paid"), key=_issued)
        if not paid:
            return "I don't see a payment on your account yet."
        return f"The last one you paid was your {_invoice(paid[-1], now)}."
    if aspect == "paid" and not subject:
        paid = [i for i in invoices if i.get("status") == "paid"]
        open_ = [i for i in invoices if i.get("status") != "paid"]
        said = [_invoice(i, now) for i in sorted(paid, key=_issued, reverse=True)[:2]]
        text = f"Yes, these are paid: {spoken_list(said)}." if paid else "Nothing is paid yet."
        if open_:
            owed = sum(int(i.get("amount_cents") or 0) for i in open_)
            text += f" Still open: {money(owed)}, for {spoken_list([_what(i) for i in open_])}."
        return text
    if not found:
        return f"I don't see an invoice for {_article(subject)} {subject.lower()} on your account."
    latest = sorted(found, key=_issued)[-1]
    state = "paid" if latest.get("status") == "paid" else "still open"
    due = parse_day(latest.get("due_on"))
    when_due = f", due {due_day(due, now.date())}" if due and state != "paid" else ""
    if aspect == "paid":
        answer = "Yes" if state == "paid" else "Not yet"
        return f"{answer}: your {_invoice(latest, now)} is {state}{when_due}."
    amount = money(int(latest.get("amount_cents") or 0))
    issued = parse_day(latest.get("issued_on"))
    on = f" from {calendar_date(issued, now.date())}" if issued else ""
    return f"Your {_what(latest)} invoice{on} came to {amount}; it's {state}{when_due}."


def last_visit_cost(
    appointments: Sequence[Item], invoices: Sequence[Item], now: datetime, service: str = ""
) -> str:
    """ "What did my last visit cost me?": the latest visit had, and the invoice of its
    service issued nearest to it (what it came to, and whether it is paid); of one service
    when one is named ("when was my last haircut and what did it cost?")."""
    past = [a for a in appointments if a.get("status") != "cancelled" and _is_past(a, now)]
    past = [a for a in past if _matches(a, service, "service")]
    if not past:
        what = service.lower() or "visit"
        return f"I don't see a past {what} on your account yet."
    last = max(past, key=lambda a: str(a.get("starts_at") or ""))
    if service:
        visit = f"Your last {_service(last)} was on {_day(last, now)}, and it"
    else:
        visit = (
            f"Your last visit, {_article(_service(last))} {_service(last)} on {_day(last, now)},"
        )
    held = parse_moment(last.get("starts_at"))
    its = [i for i in invoices if _matches(i, str(last.get("service") or ""), "description")]
    if held is None or not its:
        return f"{visit} has no invoice I can see on your account."

    def apart(invoice: Item) -> int:
        issued = parse_day(invoice.get("issued_on"))
        return abs((issued - held.date()).days) if issued else 10_000

    bill = min(its, key=apart)
    state = "paid" if bill.get("status") == "paid" else "still open"
    due = parse_day(bill.get("due_on"))
    when_due = f", due {due_day(due, now.date())}" if due and state != "paid" else ""
    return f"{visit} came to {money(int(bill.get('amount_cents') or 0))}; it's {state}{when_due}."


def owing(open_invoices: Sequence[Item], now: datetime) -> str:
    """ "Have I paid everything?" from the open invoices alone."""
    if not open_invoices:
        return "Yes, you're all paid up: nothing is owed."
    owed = sum(int(i.get("amount_cents") or 0) for i in open_invoices)
    dues = [d for i in open_invoices if (d := parse_day(i.get("due_on"))) is not None]
    by = f", due {due_day(min(dues), now.date())}" if dues else ""
    what = spoken_list([_what(i) for i in open_invoices])
    return f"Not quite: {money(owed)} is still open, for your {what}{by}."


def _issued(invoice: Item) -> str:
    return str(invoice.get("issued_on") or "")


def _what(invoice: Item) -> str:
    return lower_first(str(invoice.get("description") or "an invoice"))


def _invoice(invoice: Item, now: datetime) -> str:
    issued = parse_day(invoice.get("issued_on"))
    on = f" from {calendar_date(issued, now.date())}" if issued else ""
    amount = money(int(invoice.get("amount_cents") or 0))
    return f"{_what(invoice)} invoice{on} for {amount}"


def _due_in_the_week(pending: Sequence[Item], said: str, now: datetime) -> str:
    """ "any tasks due the week of the 21st": those falling due from its Monday to Sunday."""
    today = now.date()
    when = find_when(said, now)
    if when is None or when.day is None:
        return "Which week do you mean? Tell me a day in it, like the 21st."
    first = when.day - timedelta(days=when.day.weekday())
    last = first + timedelta(days=6)
    span = f"{spoken_day(first, today)} to {spoken_day(last, today)}"
    within = [t for t in pending if (d := parse_day(t.get("due_on"))) and first <= d <= last]
    if not within:
        return f"Nothing on your list is due that week ({span})."
    return f"Due that week ({span}): " + spoken_list([_due_said(t, today) for t in within]) + "."


def due_this_week(pending: Sequence[Item], today: date) -> str:
    """ "what's due this week": the to-dos due from today to Sunday, and those overdue
    apart (a week's "soon" took in next Monday's renewal as due this week)."""
    sunday = today + timedelta(days=6 - today.weekday())
    dated = [(d, t) for t in pending if (d := parse_day(t.get("due_on")))]
    within = [t for d, t in dated if today <= d <= sunday]
    late = [t for d, t in dated if d < today]
    said = (
        "Due this week: " + spoken_list([_due_said(t, today) for t in within]) + "."
        if within
        else "Nothing on your list is due the rest of this week."
    )
    if late:
        said += f" Overdue: {titles(late)}."
    return said


def about_tasks(tasks: Sequence[Item], aspect: str, subject: str, now: datetime) -> str:
    """Which tasks are overdue, urgent, due soon or done; whether a named one is done."""
    today = now.date()
    pending = spoken_tasks(t for t in tasks if t.get("status") != "completed")
    done = [t for t in tasks if t.get("status") == "completed"]
    if aspect == "overdue" and subject in ("high", "low"):
        # "which of my high priority tasks are overdue?": not a normal one among them
        late = [
            t
            for t in pending
            if t.get("priority") == subject and (d := parse_day(t.get("due_on"))) and d < today
        ]
        if not late:
            return f"None of your {subject}-priority tasks is overdue."
        verb = "is" if len(late) == 1 else "are"
        return f"Of your {subject}-priority tasks, {titles(late)} {verb} overdue."
    if aspect == "overdue":
        late = [t for t in pending if (d := parse_day(t.get("due_on"))) and d < today]
        if late:
            return f"Yes: {titles(late)} {'is' if len(late) == 1 else 'are'} overdue."
        dated = [t for t in pending if parse_day(t.get("due_on"))]
        nxt = f" The next one due is {_due_said(dated[0], today)}." if dated else ""
        return f"Nothing on your list is overdue.{nxt}"
    if aspect in ("high", "low"):
        picked = [t for t in pending if t.get("priority") == aspect]
        if not picked:
            return f"None of your pending tasks is {aspect} priority."
        noun = "task is" if len(picked) == 1 else "tasks are"
        return f"Your {aspect}-priority {noun} {titles(picked)}."
    if aspect == "due_soon" and subject in ("today", "tomorrow"):
        offset = 0 if subject == "today" else 1
        on_day = [t for t in pending if parse_day(t.get("due_on")) == today + timedelta(offset)]
        if not on_day:
            return f"Nothing on your list is due {subject}."
        return f"Due {subject}: {titles(on_day)}."
    if aspect == "due_soon" and subject.startswith("the week"):
        return _due_in_the_week(pending, subject, now)
    if aspect == "due_soon" and subject == "this week":
        return due_this_week(pending, today)
    if aspect == "due_soon" and subject in ("next week", "said next week"):
        # "and the week after?", "what's due next week?": Monday to Sunday of the next
        # calendar week.
        lead = "next week" if subject == "said next week" else "the week after"
        start = today + timedelta(days=7 - today.weekday())
        later = [
            t
            for t in pending
            if (d := parse_day(t.get("due_on"))) and start <= d < start + timedelta(days=7)
        ]
        if not later:
            return f"Nothing on your list is due {lead}."
        return f"Due {lead}: " + spoken_list([_due_said(t, today) for t in later]) + "."
    if aspect == "due_soon":
        soon = [t for t in pending if (d := parse_day(t.get("due_on"))) and (d - today).days <= 7]
        if not soon:
            return "Nothing on your list is due in the next week."
        return "Due soon: " + spoken_list([_due_said(t, today) for t in soon]) + "."
    if aspect == "finished":
        if not done:
            return "You haven't completed any tasks yet."
        return f"You've completed {count(len(done), 'task')}: {titles(done)}."
    if aspect == "due":
        task = tasks[0] if tasks else None
        if task is None:
            return "I'm not sure which task you mean."
        day = parse_day(task.get("due_on"))
        if day is None:
            return f"{task.get('title')} has no due date."
        return f"{task.get('title')} is due {due_day(day, today, now)}."
    named = named_tasks(tasks, subject)
    if aspect == "tasks_about":
        about = [t for t in named if t.get("status") != "completed"]
        if not about:
            return f"No, nothing on your list is about your {subject.lower()}."
        verb = "is" if len(about) == 1 else "are"
        return f"Yes: {spoken_list([_due_said(t, today) for t in about])} {verb} on your list."
    if aspect == "task_due" and named:
        if " and " in subject and len(named) > 1:
            # "when are my groceries and car insurance tasks due": each of them.
            said = [about_tasks([task], "due", "", now).rstrip(".") for task in named[:3]]
            return spoken_list(said) + "."
        return about_tasks(named[:1], "due", "", now)
    if aspect == "on_list":
        if not named:
            return f"No, there's no task like '{subject}' on your list."
        task = named[0]
        if task.get("status") == "completed":
            return f"No, {task.get('title')} is done."
        return f"Yes, {_due_said(task, today)} is still on your list."
    if aspect == "nearly_done":
        # "the groceries are almost sorted": nothing marked; offered for when it is
        if not named:
            return (
                f"I don't see a task like '{subject}' on your list. You have {titles(pending)}"
                " to do."
            )
        task = named[0]
        if task.get("status") == "completed":
            return f"{task.get('title')} is already marked done on your list."
        return (
            f"{_due_said(task, today)}, is still open on your list. Once it's finished, just "
            "say so and I can mark it done for you."
        )
    if aspect == "deleted":
        # "so is the eye exam deleted?": as the list holds it now, after a delete that
        # failed or went through.
        if not named:
            return f"Yes, it's gone: there's no task like '{subject}' on your list now."
        task = named[0]
        if task.get("status") == "completed":
            return f"No, {task.get('title')} hasn't been deleted: it's on your list, marked done."
        return f"No, {task.get('title')} hasn't been deleted: it's still on your list."
    if aspect == "task_priority" and named:
        return f"{named[0].get('title')} is {named[0].get('priority')} priority."
    # done_yet
    if not named:
        return (
            f"I don't see a task like '{subject}' on your list. You have {titles(pending)} to do."
        )
    if " and " in subject and len(named) > 1:
        # "are the groceries and insurance done?": each of them (the second was not told)
        ticked = [str(t.get("title")) for t in named[:3] if t.get("status") == "completed"]
        left = [str(t.get("title")) for t in named[:3] if t.get("status") != "completed"]
        if not left:
            return f"Yes, {spoken_list(ticked)} are done."
        if not ticked:
            return f"Not yet: {spoken_list(left)} are still on your list."
        verb = "is" if len(ticked) == 1 else "are"
        still = "is" if len(left) == 1 else "are"
        return (
            f"{spoken_list(ticked)} {verb} done, but {spoken_list(left)} {still} still on "
            "your list."
        )
    task = named[0]
    if task.get("status") == "completed":
        return f"Yes, {task.get('title')} is done."
    return f"Not yet: {_due_said(task, today)} is still on your list."


def named_tasks(tasks: Sequence[Item], subject: str) -> list[Item]:
    """The tasks `subject` names ("car insurance" → Renew car insurance; "the car thing",
    "the shopping one": a word of the title, or one said for it, beside a word that only
    says it is a to-do)."""
    return (
        [t for t in tasks if _matches(t, subject.replace(" ", ""), "title")]
        or [
            t
            for t in tasks
            if any(w in str(t.get("title")).lower() for w in subject.split() if len(w) > 3)
        ]
        or [t for t in tasks if _a_title_word(t, subject)]
        # "the grocery thing": a word of the title said in another number ("groceries")
        or [t for t in tasks if _a_title_word(t, subject, stems=True)]
    )


def _stem(word: str) -> str:
    """ "groceries", "grocery" → "grocer"; "bills" → "bill"."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3]
    if word.endswith("y") and len(word) > 3:
        return word[:-1]
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


# Words that say only that a to-do is meant ("the car thing", "the shopping one").
_OF_A_TO_DO = frozenset({"the", "my", "one", "thing", "task", "stuff", "reminder", "that", "this"})


def _a_title_word(task: Item, subject: str, *, stems: bool = False) -> bool:
    said = [SAID_FOR.get(w, w) for w in subject.lower().split() if w not in _OF_A_TO_DO]
    title = str(task.get("title")).lower().split()
    if stems:
        said, title = [_stem(w) for w in said], [_stem(w) for w in title]
    return bool(said) and any(w in title for w in said if len(w) >= 3)


def titles(items: Sequence[Item]) -> str:
    return spoken_list([str(t.get("title")) for t in items])


def _due_said(task: Item, today: date) -> str:
    day = parse_day(task.get("due_on"))
    title = str(task.get("title"))
    if day is None:
        return title
    return f"{title}, due {due_day(day, today)}"


def explain_charges(invoices: Sequence[Item], tickets: Sequence[Item], now: datetime) -> str:
    """What the open charges are for, and any support case already open about them."""
    today = now.date()
    if not invoices:
        text = "I don't see any open charges on your account right now."
    else:
        parts = []
        for invoice in invoices:
            issued = parse_day(invoice.get("issued_on"))
            due = parse_day(invoice.get("due_on"))
            on = f", invoiced {calendar_date(issued, today)}" if issued else ""
            by = f" and due {due_day(due, today)}" if due else ""
            parts.append(
                f"{money(int(invoice.get('amount_cents') or 0))} for your {_what(invoice)}{on}{by}"
            )
        text = f"I'm sorry for the trouble. The charge on your account is {spoken_list(parts)}."
    if tickets:
        subjects = spoken_list([f"'{t.get('subject')}'" for t in tickets])
        text += f" I can see your open support case {subjects}; it's still open with the team."
    return text + " If something about it is wrong, the billing team can look into it."
