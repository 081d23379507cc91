"""The words the planner knows: vocabulary, casual spellings, services, numbers, calendar.

Kept apart from the grammar so that a new synonym is one line here. The vocabulary is
also what the typo corrector may correct *to*; `COMMON_WORDS` are everyday words it
must never "correct" into a vocabulary word ("movie" is not a misspelt "move").
"""

from __future__ import annotations

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

#: Casual and shorthand spellings, replaced word for word before anything else.
SLANG = {
    "appt": "appointment",
    "appts": "appointments",
    "apt": "appointment",
    "apts": "appointments",
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "tmw": "tomorrow",
    "tmrrw": "tomorrow",
    "2moro": "tomorrow",
    "2morrow": "tomorrow",
    "tomoz": "tomorrow",
    "tonite": "tonight",
    "2day": "today",
    "pls": "please",
    "plz": "please",
    "plse": "please",
    "u": "you",
    "ur": "your",
    "r": "are",
    "thx": "thanks",
    "thnx": "thanks",
    "thanx": "thanks",
    "ty": "thanks",
    "tks": "thanks",
    "gimme": "give me",
    "lemme": "let me",
    "wanna": "want to",
    "gonna": "going to",
    "gotta": "got to",
    "whats": "what's",
    "whens": "when's",
    "hows": "how's",
    "wheres": "where's",
    "im": "i'm",
    "ive": "i've",
    "id": "i'd",
    "dont": "don't",
    "cant": "can't",
    "didnt": "didn't",
    "todo": "to-do",
    "todos": "to-dos",
    "acct": "account",
    "nxt": "next",
    "tues": "tuesday",
    "weds": "wednesday",
    "thur": "thursday",
    "thurs": "thursday",
    "fri": "friday",
    "hrs": "hours",
    "hr": "hour",
    "mins": "minutes",
    "min": "minute",
    "wk": "week",
    "wks": "weeks",
    "eod": "end of day",
    "b4": "before",
    "bc": "because",
    "cuz": "because",
    "info": "information",
    "pri": "priority",
    "prio": "priority",
    "hi-pri": "high priority",
    "mon": "monday",
    "asap": "urgent",
    "ok": "okay",
    "k": "okay",
    "kk": "okay",
    "yea": "yeah",
    "ya": "yeah",
    "nah": "no",
    "nope": "no",
    # Slips on short words, which the typo corrector leaves alone.
    "teh": "the",
    "hte": "the",
    "adn": "and",
    "nad": "and",
    "taht": "that",
    "waht": "what",
    "wat": "what",
    "whta": "what",
    "hw": "how",
    "hwo": "how",
    "shw": "show",
    "sho": "show",
    "mi": "my",
    "yuo": "you",
    "cna": "can",
    "fo": "of",
    # Misspellings too far from the word for the typo corrector to risk.
    "tommorow": "tomorrow",
    "tommorrow": "tomorrow",
    "tmorrow": "tomorrow",
    "tomorow": "tomorrow",
    "schedual": "schedule",
    "shedule": "schedule",
    "scedule": "schedule",
    "reschedual": "reschedule",
    "apointment": "appointment",
    "apointments": "appointments",
    "appoinment": "appointment",
    "appoinments": "appointments",
    "calender": "calendar",
    "recieve": "receive",
    "wensday": "wednesday",
    "wendsday": "wednesday",
    "thrusday": "thursday",
    "febuary": "february",
    "tix": "tickets",
    "biling": "billing",
    "invoce": "invoice",
    "invoces": "invoices",
}

#: Services people book, by the words they use → the name the CRM shows.
SERVICES = {
    "dental cleaning": "Dental cleaning",
    "teeth cleaning": "Dental cleaning",
    "tooth cleaning": "Dental cleaning",
    "cleaning": "Dental cleaning",
    "dentist": "Dental cleaning",
    "dental": "Dental cleaning",
    "haircut": "Haircut",
    "hair cut": "Haircut",
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
    "bills",
    "balance",
    "payment",
    "payments",
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
)


#: Everyday words the corrector must leave alone even though they are one slip away
#: from a vocabulary word.
def words(text: str) -> frozenset[str]:
    """A word list written as running text (easier to read and extend than a list)."""
    return frozenset(text.split())


COMMON_WORDS = words(
    """
    about above after again against also always another answer any anyone are around
    away back bake baked bank basket batch beach bells best better between bills bird
    birthday black blank block blood board boat body books boss bottle bought box boxes
    bread break bring brother brought budget build bunch cable cakes call called calls
    came camera canal cancer candle card cards care career carry cases cash cast castle
    caste chair chance channel chart check cheek chick child choice chores church city
    class clean clear clock close clothes coach coat code coffee cold come company cook
    cool copy corner could count country course cover crack cream credit cross daily
    dance dancing data date daughter dealer dear dental dinner dishes doctor does dog
    doing done door double down drawer dress drink drive driver during each early
    earth easy email empty ending enough entry every exact exams example extra family
    farm fast father file files fill final find fine fire first fish fixed floor flower
    flowers food form forms found frame friend friends from front fruit full garage
    garden gift give glass goes going good great green group guest hair hand happy hard
    have head health hear heart heat help here hold holiday home hotel hour house
    idea into invite items jacket keep kids kind kitchen know large last late later
    laundry lawn learn leave left letter light like line little live local lock long
    look looking lose loss lunch mail main make mall many market mask match meal
    meet meeting milk mind mine money month more most mother mouse move movie much
    music must name near need never news nice night noise none note notes nothing
    office often order other outside over owner package paint paper parent parents
    park part party pass past pay paying pen people phone photo pick picture piece
    pills pizza place plan plant plants plate play please plumber point post potato
    print prize promo puppy quick quite rain rake rather read ready really rent rental
    repair report rest return ride right ring road room rule safe sale same save saved
    school screen seat second see seed sell send sent service set shake share ship
    shirt shoes shop shopping short should show shower sign signed simple since sister
    size skip sleep small smile snow some song soon sort sound speak spend sport
    spring stamp stand start state stay still stock stone store story street study
    stuff table take taken talk taxes team tell test text than thanks that their them
    then there these thing things think this those three through ticker tile till time
    tire tired title today told took tool tooth total touch towel town track trade
    train trash travel tree trip truck true turn under until upon used user very visa
    wait walk wall want warm wash waste watch water week weekend well went were what
    when where which while white whole will window wine winter wish with without word
    work world would write yard year yoga young your
    remote removal books booker booking ticked tickle sticker kicked picket rocket
    socket locket bucket packet pocket basket contract contracts charge charged
    message messages mental rental sending spending bending lending mending tending
    clearing learning leaning meaning filling killing willing milling tissues
    remainder tanks banks thinks stats stat cooking cooked looked hooked hooking
    shooting booting tasty taste tasted masks ticks tickets status statue reminded
    balanced dancing painted pointed appointed complex compete competed impotent
    vacation location locations station relation ration nation session sessions
    lesson lessons visa visas mobile noble chocolate visitor visiting profit profits
    manager package packages polish finnish finish finished wish voice voices
    bottles battles battle cattle title titles little settle kettle
    """
)
