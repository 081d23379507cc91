"""The words the planner knows: vocabulary, services, numbers, calendar.

Kept apart from the grammar so that a new synonym is one line here. The vocabulary is
also what the typo corrector may correct *to* (spelling.py keeps what it must not).
"""

from __future__ import annotations

# Endings that make another form of a word ("emails", "booked", "cancelling", "completely"):
# a word of its own, never a slip of the word it ends (language/typos.py, text.py).
WORD_ENDINGS = ("s", "es", "d", "ed", "ing", "er", "ers", "ly")
# The same without the plural's: the grammar reads "haircuts" as "haircut".
OTHER_FORM_ENDINGS = tuple(ending for ending in WORD_ENDINGS if ending not in ("s", "es", "d"))

# The hours of a clock in words, "one" to "twelve".
HOUR_WORDS = (
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
MONTH_ABBREVIATIONS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}

NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "couple": 2,
    "a couple of": 2,
    "a few": 3,
    "few": 3,
}
ORDINAL_WORDS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "twenty first": 21,
    "twenty second": 22,
    "twenty third": 23,
    "twenty fourth": 24,
    "twenty fifth": 25,
    "twenty sixth": 26,
    "twenty seventh": 27,
    "twenty eighth": 28,
    "twenty ninth": 29,
    "thirtieth": 30,
    "thirty first": 31,
}

#: Services people book, by the words they use → the name the CRM shows.
SERVICES = {
    "dental cleaning": "Dental cleaning",
    "teeth cleaning": "Dental cleaning",
    "tooth cleaning": "Dental cleaning",
    "cleaning": "Dental cleaning",
    "dentist": "Dental cleaning",
    "dental": "Dental cleaning",
    # the visit a dentist's cleaning is often called (apart: "dental x-ray" is not it)
    "dental checkup": "Dental cleaning",
    "dental check-up": "Dental cleaning",
    "dental check up": "Dental cleaning",
    # the visit named by what it is for, said loosely: "my teeth thing", "the hair one"
    # ("teeth" alone stays no service: "do you do teeth whitening" is asked of the offer)
    "teeth thing": "Dental cleaning",
    "teeth one": "Dental cleaning",
    "teeth appointment": "Dental cleaning",
    "tooth thing": "Dental cleaning",
    "tooth one": "Dental cleaning",
    "tooth appointment": "Dental cleaning",
    "hair thing": "Haircut",
    "hair one": "Haircut",
    "haircut": "Haircut",
    "hair cut": "Haircut",
    # said by those whose English puts the verb first ("appointment for cut hair")
    "cut hair": "Haircut",
    "hair cutting": "Haircut",
    "trim": "Haircut",
    "hair appointment": "Haircut",
    "annual checkup": "Annual checkup",
    "annual check-up": "Annual checkup",
    "annual check up": "Annual checkup",
    "checkup": "Annual checkup",
    "check-up": "Annual checkup",
    "check up": "Annual checkup",
    "physical exam": "Annual checkup",
    "consultation": "Consultation",
    "consult": "Consultation",
    "eye exam": "Eye exam",
    "eye test": "Eye exam",
    "eye appointment": "Eye exam",
    "optometrist": "Eye exam",
    # the visit named by its place or who sees you: "the eye place", "the hair place"
    "eye doctor": "Eye exam",
    "eye place": "Eye exam",
    "eye clinic": "Eye exam",
    "hair place": "Haircut",
    "hair salon": "Haircut",
    "hairdresser": "Haircut",
    "barber": "Haircut",
    "physical therapy": "Physical therapy",
    "physiotherapy": "Physical therapy",
    "physio": "Physical therapy",
    "pt session": "Physical therapy",
    "massage": "Massage",
    "follow-up": "Follow-up visit",
    "follow up": "Follow-up visit",
    "followup": "Follow-up visit",
    "manicure": "Manicure",
    "pedicure": "Pedicure",
    "facial": "Facial",
    "color": "Hair color",
    "colour": "Hair color",
    "flu shot": "Flu shot",
    "vaccination": "Vaccination",
    "blood test": "Blood test",
    "x-ray": "X-ray",
}

#: Words that name a visit among those booked, though no service on their own: "no, the
#: teeth one" is the dental cleaning (a target's words, never a service to book).
VISIT_WORDS = {"teeth": "Dental cleaning", "tooth": "Dental cleaning"}

#: A kind of place, said of a visit booked there ("the salon one", "my thing at the spa"):
#: the services done at such a place. It names a visit only when one booked is among them.
PLACE_KINDS = {
    "salon": frozenset({"Haircut", "Hair color", "Manicure", "Pedicure", "Facial"}),
    "salons": frozenset({"Haircut", "Hair color", "Manicure", "Pedicure", "Facial"}),
    "spa": frozenset({"Massage", "Facial", "Manicure", "Pedicure"}),
    "barbershop": frozenset({"Haircut"}),
    "barbers": frozenset({"Haircut"}),
    "hairdressers": frozenset({"Haircut", "Hair color"}),
    "dentists": frozenset({"Dental cleaning"}),
}

#: The doing words a task's title starts with ("Call the pharmacy", "Buy groceries"), and
#: their kin a customer says instead ("the grocery shopping task", "the booking one"):
#: two titles that differ only in them name the same errand; the nouns say which. Only
#: words seldom a noun in a title: "eye drops", "tax return", "phone bill" say which.
TITLE_VERBS = frozenset(
    {
        "buy", "shop", "shopping", "get", "pick", "call", "ring", "email", "send", "renew",
        "renewal", "schedule", "book", "arrange", "organize", "organise", "set", "make", "do",
        "finish", "pay", "sort", "fix", "clean", "review", "read", "write", "sign", "fill",
        "submit", "collect", "take", "bring", "see", "contact", "follow", "print", "update",
        "register", "apply", "prepare", "note", "log", "record",
    }
)  # fmt: skip

#: The other words for a change a customer asks for, beside the plain ones every guard
#: names ("cancel", "move", "book", "delete", "mark"…). Each guard that reads a change as
#: not asked for (said not to be done, advice asked, a deadline asked, a change weighed)
#: reads these too: "don't bump my haircut to saturday" moved it, "should I pencil in a
#: massage?" booked one, "never get rid of the groceries task" held its delete. A
#: pattern's alternatives, each a whole word or phrase.
OTHER_CHANGE_VERBS = (
    r"push(?: back)?|bump|shift|postpone|rebook|switch|swap|bring forward|bring|pull"
    r"|schedule|set up|pencil in|pencil|put down|make|get rid of|get rid|finish|scrap|drop"
    r"|clear|check off|tick off|tick|cross off|cross|erase|wipe|rename|edit"
)
#: The words a booking is asked with, beside "book": "schedule me another one…", "set me
#: up with a new one", "pencil in one more" ask what "book me another one…" does.
BOOKING_VERBS = (
    r"book|get|make|put|schedule|set (?:me |us )?up(?: with)?|arrange|pencil in|reserve|line up"
)
#: The same, said as doing ("I'm not scheduling…", "I'm thinking about pencilling in…").
OTHER_CHANGE_DOINGS = (
    r"pushing|bumping|shifting|postponing|rebooking|switching|swapping|bringing|pulling"
    r"|scheduling|setting up|pencil?ling|putting down|getting rid|finishing|scrapping"
    r"|dropping|clearing|checking off|ticking|crossing|erasing|wiping|renaming|editing"
    r"|completing|removing|marking|opening|creating|updating|making"
)

#: Every verb a change is asked with: the plain ones and the other words above. A guard
#: that reads where a change stands in a clause (language/not_asked.py) names them all,
#: so that no guard stops one verb and lets its other word through.
CHANGE_VERBS = (
    r"cancel|call off|delete|remove|book|move|reschedule|mark|complete|add|change|update"
    # ("log in", "login" are no change: "the app won't let me log in" is a problem told)
    r"|open|create|raise|log(?! ?in\b| on\b| into\b)|file|submit|set|put|rename|note|jot"
    r"|reserve|arrange|" + OTHER_CHANGE_VERBS
)
#: The same, said as done ("I've already booked…", "why did you move…"), but for those a
#: to-do is said done with ("I finished the groceries task": it is done, so ticked off).
CHANGE_DONE = (
    r"cancell?ed|called off|deleted|removed|booked|moved|rescheduled|changed|updated"
    r"|opened|created|raised|logged|filed|submitted|put|renamed|reserved|arranged|pushed"
    r"|pushed back|bumped|shifted|postponed|rebooked|switched|swapped|brought forward|brought"
    r"|pulled|scheduled|set up|pencil?led in|pencil?led|made|got rid of|gotten rid of"
    r"|scrapped|dropped|erased|wiped|edited|added"
)

#: What the typo corrector may correct to: the words the grammar keys on.
VOCABULARY = (
    *WEEKDAYS,
    *MONTHS,
    "appointment",
    "appointments",
    "booking",
    "bookings",
    "booked",
    "book",
    "schedule",
    "scheduled",
    "reschedule",
    "visit",
    "visits",
    "reservation",
    "reservations",
    "calendar",
    "upcoming",
    "cancel",
    "cancelled",
    "canceled",
    "invoice",
    "invoices",
    "billing",
    "bill",
    "bills",
    "balance",
    "payment",
    "payments",
    # "what's the damge": what is owed, said as "the damage"
    "damage",
    "transfer",
    "outstanding",
    "unpaid",
    "charges",
    "statement",
    "task",
    "tasks",
    "reminder",
    "reminders",
    "remind",
    "complete",
    "completed",
    "finish",
    "finished",
    "delete",
    "remove",
    "rename",
    "priority",
    "urgent",
    "important",
    "ticket",
    "tickets",
    "support",
    "complaint",
    "issues",
    "problem",
    "profile",
    "account",
    "email",
    "phone",
    "number",
    "address",
    "update",
    "change",
    "contact",
    "details",
    "summary",
    "summarize",
    "progress",
    "tomorrow",
    "today",
    "tonight",
    "morning",
    "afternoon",
    "evening",
    "please",
    "show",
    "list",
    "check",
    "tell",
    "give",
    "everything",
    "haircut",
    "dental",
    "cleaning",
    "consultation",
    "checkup",
    "massage",
    "therapy",
    "pending",
    "status",
    "thanks",
    "thank",
    "hello",
    "create",
    "open",
    "mark",
    "move",
    "push",
    "postpone",
    "next",
    "what's",
    "when's",
    "anything",
    "upcoming",
    "week",
    "weeks",
    # Typed in a hurry ("acutally", "insted", "excpt", "agian", "coudl", "whcih"): the words
    # a correction, a choice or an exception turns on, a polite ask is made of, or a remark
    # says, long enough that one slip leaves them unmistakable.
    "actually",
    "instead",
    "except",
    "again",
    "anymore",
    "another",
    "different",
    "others",
    "remaining",
    "whichever",
    "which",
    "could",
    "would",
    "because",
    "until",
    "already",
    "something",
    "scratch",
    "rebook",
    "forward",
    "coming",
    "happened",
    "charged",
    "overcharged",
    "understand",
    "receptionist",
    "waitlist",
    "definitely",
    "available",
    "cheers",
    "lovely",
    "brilliant",
    "perfect",
    "correct",
    "possible",
    "really",
    "previous",
    "recently",
    "waiting",
    "whatever",
    "soonest",
    "running",
    "wondering",
    "charge",
    "session",
    "current",
    "probably",
    "mobile",
    "return",
    "chance",
    # "sevnteenth", "fourtenth": a day of the month said in words
    *(word for word in ORDINAL_WORDS if word.isalpha() and len(word) >= 7),
    # "dentest", "manicur": a service's own one-word name, long enough that one slip
    # leaves it unmistakable (shorter ones, "trim", "color", are real words' neighbours).
    *(name for name in SERVICES if name.isalpha() and len(name) >= 7),
)


#: Everyday words the corrector must leave alone even though they are one slip away
#: from a vocabulary word.
