"""The rules that read one clause: writes first (strongest cues), then lookups.

Each write rule looks for its verb phrase and reads its slots; the first that fits
wins, so a clause asks for one action (task_rules, appointment_rules, account_rules).
A clause with no write asks to see things (lookups). A clause naming only a target
("…and the pharmacy one") carries the action before it over.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from datetime import date, datetime

from assistant.language import account_rules, appointment_rules, quoted, slots, task_rules
from assistant.language.asked_frame import frame_of
from assistant.language.clause import (
    APPT_NOUN,
    LIST_TAIL,
    NEGATED,
    QUESTION_START,
    REPORT_FIRST,
    Clause,
    asks_to_look,
    opens_with_a_verb,
)
from assistant.language.dates import find_when
from assistant.language.intent import APPOINTMENT_ACTIONS, TASK_ACTIONS, Intent, IntentKind
from assistant.language.lexicon import SERVICES
from assistant.language.lookups import READS, reads
from assistant.language.not_asked import not_asked, offered
from assistant.language.others import (
    for_someone_else,
    people_counted,
    reported,
    several_visits,
)
from assistant.language.patterns import rx
from assistant.language.read_once import read_once
from assistant.language.scope import (
    asks_advice,
    asks_if_done,
    asks_if_needed,
    asks_to_pay,
    asks_what_was_done,
    deliberates,
    done_elsewhere,
    hypothetical,
    leans_to,
    on_a_condition,
    undecided,
)
from assistant.language.spelling import words
from assistant.language.targets import EXCEPT, TargetRef, left_out_ref, target_ref
from assistant.language.text import Normalized
from assistant.language.unkept import unkept_detail, without_length

# --- "…and the pharmacy one": an action carried over to a new target -----------------


# "…, I've got a deadline", "…, I'm away that week": a reason told after the ask, said by
# the customer of themselves (a second target of a cancel was read from it).
_REASON_TOLD = rx(
    r"^(?:i've got|i have got|i've|i have|i'm|i am|we've got|we've|we're|we are|i'll be"
    r"|i will be|we'll be) (?!to |got to |(?:also |still )?(?:got |)(?:another|one more)\b)"
)


# "push groceries to saturday, oh and it's urgent": how much the one just named matters,
# told after the ask (it was read as another thing moved, named "it's urgent").
_LEVEL_TOLD = rx(
    r"^(?:(?:and|oh|also|but|so|plus)[ ,]+)*(?:it's|it is|that's|that is|its)(?: also| really"
    r"| quite| very| kind of| pretty)? (?P<level>urgent|important|(?:a )?high priority"
    r"|(?:a )?top priority|a priority|(?:a )?low priority|not urgent|not important)"
    r"(?: too| as well| now)?[.!]*$"
)


def _level_told(c: Clause, action: Intent) -> Intent | None:
    """The level told of the to-do the ask before named (or moved, naming no visit)."""
    told = _LEVEL_TOLD.match(c.text)
    if told is None or action.kind in ("book_appointment", "cancel_appointment"):
        return None
    if action.kind == "reschedule_appointment" and (
        action.target is None
        or APPT_NOUN.search(action.target.phrase)
        or slots.services_named(action.target.phrase)
    ):
        return None  # "move my haircut to friday, it's urgent": why, of a visit
    said = told.group("level")
    level = "normal" if said.startswith("not") else "low" if "low" in said else "high"
    return Intent("update_task", {"priority": level}, target=target_ref("it", "it"), clause=c.text)


def _inherit(c: Clause, previous: Sequence[Intent]) -> Intent | None:
    actions = [i for i in previous if i.kind in TASK_ACTIONS | APPOINTMENT_ACTIONS]
    if len(actions) != 1 or len(previous) != 1:
        return None
    if (level := _level_told(c, actions[0])) is not None:
        return level
    if asks_to_look(c.text):
        return None
    action = actions[0]
    if (
        _CANCEL_IT.fullmatch(c.text)
        and action.kind in APPOINTMENT_ACTIONS
        and action.target is not None
        and not action.target.vague
    ):
        # "move my cleaning to friday, no, just cancel it": the visit the ask before named.
        return Intent("cancel_appointment", target=action.target, clause=c.text)
    if (
        action.kind == "reschedule_appointment"
        and _A_TASK.search(c.text)
        and find_when(c.text, c.now) is not None
    ):
        # "move my haircut to saturday and the groceries task to friday": a task is moved
        # by its due date.
        own = task_rules.update_task(dataclasses.replace(c, text=f"move {c.text}"))
        return _naming_its_own(own)
    # "…. And the eye exam one the same day too" after a task's due day was set: among
    # tasks, "the … one" with a day is a task (never a look at the eye exam visits).
    task_dated = action.kind == "update_task" and find_when(c.text, c.now) is not None
    if not task_dated and any(
        pattern.search(c.text) for kind, pattern in READS if not _same_domain(kind, action)
    ):
        return None
    if undecided(c.text):
        return None  # "…, I'm not sure yet": about the ask, not another target of it
    if _REASON_TOLD.match(c.text):
        return None  # "cancel the cleaning, I've got a deadline": why, not which one
    if _SAME_THING.fullmatch(c.text):
        return None  # "…to friday, same time": how, not which one (read with the ask)
    if action.kind == "update_task":
        # "set groceries to low and car insurance to normal": the second says its own level.
        own = task_rules.update_task(dataclasses.replace(c, text=f"set {c.text}"))
        if own is not None:
            return own
        # "make the eye exam high priority and due friday": a change of the same task,
        # said without it ("it", vague: merged into the ask before), not a task named
        # "due friday" given the first change again.
        more = task_rules.update_task(dataclasses.replace(c, text=f"make it {c.text}"))
        if more is not None and more.target is not None and more.target.vague:
            return more
        if find_when(c.text, c.now) is not None:
            # "move the insurance task to friday and the groceries one to thursday": the
            # second task is due when its own words say, never when the first went.
            moved = _ONE.sub("task", c.text.replace(" to on ", " to "))
            # "the eye exam task on friday too": the day it goes to
            moved = _ON_ITS_DAY.sub(" to ", moved, count=1)
            own = task_rules.update_task(dataclasses.replace(c, text=f"move {moved}"))
            return (
                own if own is not None and own.target is not None and not own.target.vague else None
            )
    if action.kind == "reschedule_appointment" and find_when(c.text, c.now) is not None:
        # "move the dentist to thursday at 9am and the haircut to friday at 4pm": the
        # second visit goes where its own words say, not where the first went.
        own = appointment_rules.reschedule(dataclasses.replace(c, text=f"move {c.text}"))
        return _naming_its_own(own)
    if action.kind in TASK_ACTIONS and _MOVES.search(c.text):
        # "the groceries are done, and could you move the car insurance one to friday":
        # among tasks, "the … one" is a task, and moving it is its due date.
        own = task_rules.update_task(dataclasses.replace(c, text=_ONE.sub("task", c.text)))
        return _naming_its_own(own)
    if _OWN_VERB.search(c.text) or opens_with_a_verb(c.text):
        return None  # a clause with a verb of its own asks its own thing, never the one before
    # "…and the insurance one too": "too" says the same again, it names nothing.
    target = target_ref(_TOO.sub("", LIST_TAIL.sub("", c.text)), c.original, c.now)
    if target.vague:
        return None
    return Intent(
        action.kind,
        action.arguments,
        target=target,
        when=action.when,
        missing=action.missing,
        clause=c.text,
    )


def _naming_its_own(intent: Intent | None) -> Intent | None:
    """The clause's own ask when it names what it is about ("the groceries task"), else
    None: "it" alone is not read as another target of the ask before."""
    return (
        intent
        if intent is not None and intent.target is not None and not intent.target.vague
        else None
    )


# "…and then cancel it": a cancel naming nothing but "it" ("cancel" alone is a "stop").
_CANCEL_IT = rx(
    r"(?:(?:and|then|also|just|please|actually|no)\b[ ,]*)*(?:cancel|call off|scrap) "
    r"(?:it|that|that one|this|this one)(?: please| for me| too| as well| instead)?"
)


_SAME_THING = rx(
    r"(?:at |for |on )?(?:the )?same (?:time|day|hour|place|date)(?: as (?:before|now|it is))?"
    r"(?: please| then| yeah)?"
)
_A_TASK = rx(r"\b(?:task|to-?do|reminder)s?\b")
# "the eye exam task on friday", "…due on the 20th": the day said after the task.
_ON_ITS_DAY = rx(r"(?:(?<=\btask)|(?<=\bone)) (?:due )?(?:on|for|by) (?!to )")
_TOO = rx(r",?\s*\b(?:too|as well|also)\b")
_MOVES = rx(r"\b(?:move|push|postpone|put off|shift|bring forward|change)\b")
_ONE = rx(r"\bone\b")
_OWN_VERB = rx(
    r"\b(?:move|push|postpone|reschedule|shift|bring|change|delete|remove|cancel|book|add"
    r"|rename|set|make|mark|tick|cross|complete|finish|open|update|create)\b"
)


def _same_domain(kind: IntentKind, action: Intent) -> bool:
    if action.kind in TASK_ACTIONS:
        return kind == "tasks"
    return kind == "appointments"


# The clause referred back to says what the customer does or feels about the thing
# ("I don't need the eye exam reminder any more"): only the rest describes it.
_NOT_A_TARGET_WORD = words(
    """
    can't cannot won't do does did make see show find look got what where don't not no never need
    needed want wanted delete remove cancel mark complete finish finished anymore any
    more longer going i'm i've really actually still keep keeping get rid now already
    just think guess thought sure booked scheduled sorted has have had
    """
)


def refer_back(intent: Intent, clause: str, norm: Normalized, now: datetime) -> Intent:
    """Aim `intent` ("cancel it") at what the clause before it described."""
    target = target_ref(clause, norm.original, now)
    if (
        intent.kind == "reschedule_appointment"
        and _BY_ITS_DUE_DAY.search(clause)
        and intent.when is not None
        and intent.when.day is not None
        and intent.when.clock is None
    ):
        # "the one due tomorrow, push it to thursday": a task named by its due day, moved
        # to another day (never a visit looked for "due tomorrow")
        return _due_day_moved(intent, target, intent.when.day)
    words = tuple(w for w in target.words if w not in _NOT_A_TARGET_WORD)
    if intent.kind in APPOINTMENT_ACTIONS:
        words = tuple(w for w in words if slots.service(w, w))
    return as_a_task_moved(
        dataclasses.replace(intent, target=dataclasses.replace(target, words=words))
    )


def as_a_task_moved(intent: Intent) -> Intent:
    """ "the high priority one, push it to the 12th", "push the one with no date to
    friday": a move aimed at what only a to-do has (a priority, no due date) moves that
    to-do's due day. It was asked which appointment to move."""
    target = intent.target
    if (
        intent.kind != "reschedule_appointment"
        or target is None
        or not (target.priority or target.undated)
        or intent.when is None
        or intent.when.day is None
        or intent.when.clock is not None
    ):
        return intent
    return _due_day_moved(intent, target, intent.when.day)


def _due_day_moved(intent: Intent, target: TargetRef, day: date) -> Intent:
    """The move, read as the to-do `target`'s due day set to `day`."""
    return Intent(
        "update_task",
        {"due_on": day.isoformat()},
        target=target,
        when=intent.when,
        clause=intent.clause,
    )


_BY_ITS_DUE_DAY = rx(r"\b(?:one|task|reminder|to-?do)s? (?:that's |that is |which is )?due\b")


# "…and tell me what else is due": a question put as a request names no new target.
_ASKS_TO_BE_TOLD = rx(
    r"(?:please |can you |could you |and |also |then |just )*(?:tell|show|give|let) (?:me|us)\b"
)

_WRITE_RULES: tuple[Callable[[Clause], Intent | list[Intent] | None], ...] = (
    task_rules.added_again,
    task_rules.add_task,
    account_rules.create_ticket,
    account_rules.update_contact,
    task_rules.update_task,
    appointment_rules.instead,
    appointment_rules.made_it,
    appointment_rules.could_it_be,
    appointment_rules.reschedule,
    appointment_rules.cancel,
    task_rules.delete,
    task_rules.complete,
    appointment_rules.book,
    task_rules.said_as_a_need,
)


_CONDITION_WORD = rx(r",?\s*\b(?:if|unless|only if|provided|as long as)\b")


def _without_condition(intent: Intent, c: Clause) -> Intent:
    """ "cancel my dentist if it's before noon": the dentist, not one named "if it before"."""
    target = intent.target
    if target is None or (cut := _CONDITION_WORD.search(target.phrase.lower())) is None:
        return intent
    kept = target_ref(target.phrase[: cut.start()], c.original, c.now)
    return intent if kept.vague else dataclasses.replace(intent, target=kept)


def _unkept(intent: Intent, said: str) -> Intent:
    """A booking asked with what it cannot hold: asked about, the words said kept to name it."""
    if intent.kind != "book_appointment" or "unkept" in intent.missing:
        return intent
    return dataclasses.replace(intent, missing=(*intent.missing, "unkept"), clause=said)


def needs_consent(intent: Intent) -> Intent:
    """The write, to be made only on the customer's yes to it (asked last)."""
    if "consent" in intent.missing:
        return intent
    return dataclasses.replace(intent, missing=(*intent.missing, "consent"))


_VISIT_CHANGES = frozenset({"book_appointment", *APPOINTMENT_ACTIONS})


def _for_someone_else(intent: Intent) -> Intent:
    """A visit for another person: the customer is told it is not made, and asked."""
    if intent.kind not in _VISIT_CHANGES:
        return intent  # "remind me to pick up my son": the customer's own task
    # (what else is lacking is asked once she says it is hers: "book a checkup for my son"
    # → "yes" → when)
    lacking = tuple(m for m in intent.missing if m in ("when", "time"))
    return dataclasses.replace(intent, missing=("someone_else", *lacking))


def _left_out(intent: Intent, c: Clause) -> Intent:
    """ "mark every task as done apart from the car insurance": an exception said after
    the action's words is the target's too (the rule's target phrase ends before it)."""
    target = intent.target
    if target is None or target.excluded is not None or target.item_id is not None:
        return intent
    cut = EXCEPT.search(c.text)
    if cut is None or EXCEPT.search(target.phrase.lower()) is not None:
        return intent
    left_out = left_out_ref(c.text[cut.end() :], c.original, c.now)
    if left_out.vague:
        return intent
    return dataclasses.replace(intent, target=dataclasses.replace(target, excluded=left_out))


# "the day after my dentist", "the same time as my haircut", "two days before my cleaning":
# a day told by another appointment, whose date only the CRM knows.
_ANCHORED_WHEN = rx(
    r"\b(?:(?:the )?same (?:day|time|date|week|hour|morning|afternoon|evening)"
    r"|(?:the )?(?:day|morning|afternoon|evening|night|week|weekend) (?:after|before)"
    r"|\w+ (?:days?|weeks?|hours?|minutes?) (?:after|before)"
    r"|(?:right|straight|just|directly|immediately) (?:after|before))"
    r" (?:as |that of )?(?:my|the|our|your) (?!(?:next|this|coming|following)\b)"
    r"(?:\w+ ){0,2}?(?:appointments?|visits?|sessions?|bookings?|"
    + "|".join(re.escape(name) for name in sorted(SERVICES, key=len, reverse=True))
    + r")\b"
)
_TIMED = frozenset({"book_appointment", "reschedule_appointment"})


def _anchored(intent: Intent, c: Clause) -> Intent:
    """A booking or a move to a day told by another appointment: never to a day guessed
    from the words around it; the day is asked, the rest of the request kept."""
    if intent.kind not in _TIMED or (found := _ANCHORED_WHEN.search(c.text)) is None:
        return intent
    if intent.target is not None and found.group(0) in intent.target.phrase.lower():
        return intent  # "move the one the day after my dentist…": that is which one
    clause = re.sub(r"\s+", " ", f"{c.text[: found.start()]} {c.text[found.end() :]}").strip()
    arguments = {key: value for key, value in intent.arguments.items() if key != "starts_at"}
    return dataclasses.replace(
        intent, arguments=arguments, when=None, missing=("anchored_when",), clause=clause
    )


@read_once
def negated(text: str) -> bool:
    """The clause says what not to do ("don't cancel anything")."""
    negation = NEGATED.search(text)
    if negation is None or (
        ("longer" in text or "more" in text or "after all" in text)
        and appointment_rules.NO_LONGER_WANTED.search(text)
    ):
        return False  # "I don't want the cleaning anymore": a cancel said as unwanted
    report = REPORT_FIRST.search(text)
    return report is None or report.start() > negation.start()


def _quotes_masked(clause: Clause) -> Clause:
    """`clause` with its quoted words masked (quoted.py); the clause itself without any."""
    text = quoted.masked(clause.text)
    return clause if text == clause.text else dataclasses.replace(clause, text=text)


# "the haircut needs to go to saturday at 1", "it's the haircut that needs moving to friday",
# "my cleaning has to be moved to 9": a move said as what the thing needs (read as a look at
# the visits; "it's the haircut that needs to move…" moved the one named before).
_NEEDS_MOVING = rx(
    r"^(?P<lead>(?:(?:but|and|so|well|actually|no|oh)[ ,]+)*)(?:(?:it's|it is) )?"
    r"(?P<thing>(?:the|my|that|this) (?!(?:one|thing)\b)[a-z' -]+?)(?: that| which)?"
    r"(?: really| actually| just)?"
    r" (?:(?:needs|need|has|have|will have|ought) to (?:be )?(?:moved|move|go|rescheduled"
    r"|pushed|shifted|shift|push|brought|bring)|needs? (?:moving|shifting|rescheduling|pushing"
    r"|bringing)|(?:should|must) (?:be moved|move|go))"
    r" (?P<rest>(?:to|till|until|on|for) .+|(?P<way>back|forward|up|earlier|later) .+)$"
)
# How far a move said with its way goes: "back an hour", "forward two days", "up 30 minutes".
_BY_HOW_MUCH = rx(
    r"\b(?:an?|one|two|three|four|half an?|\d+) ?(?:hours?|minutes?|mins?|days?|weeks?)\b"
)


_NEEDS_WORDS = ("need", "has to", "have to", "ought", " must ", " should ")


def _needs_moving(text: str, now: datetime) -> str:
    """ "the haircut needs to go to saturday at 1": "move the haircut to saturday at 1",
    when what follows says a day or an hour."""
    said = _NEEDS_MOVING.match(text)
    if said is None:
        return text
    if said.group("way") is None:
        # the day or hour said right after "to/on/for" ("…needs to go to the vet on friday"
        # is somewhere to go, not a move)
        rest = said.group("rest")
        when = find_when(rest, now)
        if when is None or min(start for start, _ in when.spans) > len(rest.split()[0]) + 5:
            return text
    if said.group("way") is not None and _BY_HOW_MUCH.search(said.group("rest")) is None:
        return text
    # (by how much: "push", which a to-do's due day is moved by too)
    verb = "push" if said.group("way") else "move"
    return f"{said.group('lead')}{verb} {said.group('thing')} {said.group('rest')}"


def read_clause(
    text: str,
    norm: Normalized,
    now: datetime,
    timezone: str,
    *,
    previous: Sequence[Intent] = (),
    asked: bool = False,
) -> list[Intent]:
    """The intents of one clause (normally one write, or any number of lookups);
    `asked`: the clause ended its sentence with a question mark."""
    if negated(text) or asks_to_pay(text):
        return []
    if any(word in text for word in _NEEDS_WORDS):
        text = _needs_moving(text, now)
    # "book a haircut with Sam", "a 60 minute massage": what a booking cannot hold (read
    # without the length: "a 60 minute massage" is a massage)
    detail = unkept_detail(text)
    clause = Clause(text if detail is None else without_length(text), norm, now, timezone, asked)
    if hypothetical(text):
        # "should I cancel my dentist?" among other asks: the thing it would change is read
        # (the first named: "…before or after I pay" asks about the task, not the bill).
        return reads(clause)[:1] if asks_advice(text) else []
    if (
        asks_if_done(text)
        or asks_if_needed(text)
        or deliberates(text)
        or done_elsewhere(text)
        or not_asked(text)
    ):
        return reads(clause)  # "did I cancel my haircut?": what is on file says
    if asks_what_was_done(text):
        return []  # "what time did you book it for?": told from the change just made
    if " for " in text and (count := people_counted(text)) is not None:
        # "a massage for two on friday at 3": the count is no hour (the clause is read
        # without it; the visit is asked about as one for several people)
        start, end = count.span()
        clause = dataclasses.replace(clause, text=text[:start] + " " * (end - start) + text[end:])
    gate = _quotes_masked(clause)
    for rule in _WRITE_RULES:
        if gate is not clause and not rule(gate):
            continue  # its verb was inside the quotes: a title's words, not the ask
        if found := rule(clause):
            frame = frame_of(text)
            if frame == "not asked" and (
                offered(text) or on_a_condition(text) or reported(text) or leans_to(text)
            ):
                # "I tried to book it on the website", "I was told to delete it", "I'm
                # thinking of booking…": asked about below, whoever is said to do it
                frame = "offered"
            if frame == "not asked":
                # "i used to cancel my haircut every month", "who told you to move it?": the
                # change is someone's, or past, and not asked of us; what it names is read
                return reads(clause)
            found = [
                as_a_task_moved(_anchored(_left_out(i, clause), clause))
                for i in (found if isinstance(found, list) else [found])
            ]
            if for_someone_else(text):
                # "book a checkup for my son": never made in the customer's name.
                found = [_for_someone_else(i) for i in found]
                if reported(text):
                    # "my neighbour wants to complain about…": another's wish, asked about
                    found = [i if i.kind in _VISIT_CHANGES else needs_consent(i) for i in found]
            elif several_visits(text):
                # "two haircuts saturday 10am": more visits than one booking makes.
                found = [_for_someone_else(i) if i.kind == "book_appointment" else i for i in found]
            elif on_a_condition(text) or reported(text) or leans_to(text) or offered(text):
                # "…and if not, book a haircut for Tuesday", "my husband said to cancel the
                # dentist", "I'm thinking of moving the haircut": asked about, not made.
                found = [needs_consent(_without_condition(i, clause)) for i in found]
            if frame == "offered":
                found = [needs_consent(i) for i in found]  # "i'll book it myself later"
            if detail is not None:
                found = [_unkept(i, text) for i in found]
            return found
    if (
        QUESTION_START.search(text) is None
        and _ASKS_TO_BE_TOLD.match(text) is None
        and (inherited := _inherit(clause, previous))
    ):
        return [inherited]
    if " one " in text and (moved := appointment_rules.named_one_moved(clause)) is not None:
        return [moved]
    return reads(clause)


__all__ = ["as_a_task_moved", "needs_consent", "negated", "read_clause", "refer_back"]
