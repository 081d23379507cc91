"""Spelling: casual and shorthand forms, and everyday words never to "correct".

`SLANG` is replaced word for word before anything else ("tmrw" → "tomorrow"). The typo
corrector only corrects towards the vocabulary (lexicon.py); `COMMON_WORDS` are words
one slip away from a vocabulary word that must be left alone ("movie" is not "move").
"""

from __future__ import annotations

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
    "cn": "can",
    "cud": "could",
    "wud": "would",
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
    # "pls cxl my appt monday": cancel, as a booking system writes it
    "cxl": "cancel",
    "canx": "cancel",
    "cncl": "cancel",
    "resched": "reschedule",
    # "cn u mve my appt to fri @ 3", "pls chng my clning to thu @ 9": a phone's vowels left
    # out (it was "nothing booked on Friday", or "I didn't catch")
    "mve": "move",
    "mv": "move",
    "chng": "change",
    "chnge": "change",
    "clning": "cleaning",
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
}

#: Misspellings a customer types in a hurry, each of one word only ("teh", "tommorow",
#: "soz"): also put right in the message as meant, once a turn (as_meant.py), so that
#: the rules reading the customer's own words read the word meant.
MISSPELT = {
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
    "wen": "when",
    "whn": "when",
    "wehn": "when",
    "hwo": "how",
    "shw": "show",
    "sho": "show",
    "mi": "my",
    "yuo": "you",
    "cna": "can",
    "fo": "of",
    "ow": "owe",
    "oew": "owe",
    # Misspellings too far from the word for the typo corrector to risk.
    "tommorow": "tomorrow",
    "tommorrow": "tomorrow",
    "tmorrow": "tomorrow",
    "tomorow": "tomorrow",
    "tomrow": "tomorrow",
    "tomoro": "tomorrow",
    "tmorow": "tomorrow",
    "sry": "sorry",
    "shes": "she's",
    "soz": "sorry",
    "sorr": "sorry",
    # "mark the eye exam dun": "done" as a recogniser or a learner writes it
    "dun": "done",
    "wich": "which",
    "whcih": "which",
    "becuase": "because",
    "becasue": "because",
    "definately": "definitely",
    "acutally": "actually",
    "actully": "actually",
    "seperate": "separate",
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
    "nvm": "never mind",
    "bal": "balance",
    "cxl": "cancel",
    "canx": "cancel",
    "resched": "reschedule",
    "wk": "week",
    "wks": "weeks",
}
SLANG.update(MISSPELT)

#: A phone's shorthand between words ("cn u move my appt n tell me…", "& what's due",
#: "same as b4"), put right in the message as meant (as_meant.py) as it is in the grammar's.
SHORTHAND = {
    "n": "and",
    "&": "and",
    "k": "ok",
    "u": "you",
    "b4": "before",
    "appt": "appointment",
    "appts": "appointments",
    "pls": "please",
    "plz": "please",
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "2moro": "tomorrow",
    "2morrow": "tomorrow",
    "2day": "today",
    "2nite": "tonight",
}


def words(text: str) -> frozenset[str]:
    """A word list written as running text (easier to read and extend than a list)."""
    return frozenset(text.split())


COMMON_WORDS = words(
    """
    manage managed manager image damp
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
    changes issue
    states statues issued talks detail importance importing balls hills kills mills bulls
    wills fills passage complain complained complains compliant observation observations
    preservation seeks denial prone compelled concealed mourning moaning wicket wickets
    charger chargers consolation cleansing crate crease booming vending lumber weeds lease
    pleas submarine summaries changer phony gmail iphone complexes fascination
    charles billy marco augusta chuck marsh cello tel
    message messages mental rental sending spending bending lending mending tending
    clearing learning leaning meaning filling killing willing milling tissues
    remainder tanks banks thinks stats stat cooking cooked looked hooked hooking
    shooting booting tasty taste tasted masks ticks tickets status statue reminded
    balanced dancing painted pointed appointed complex compete competed impotent
    vacation location locations station relation ration nation session sessions
    lesson lessons visa visas mobile noble chocolate visitor visiting profit profits
    manager package packages polish finnish finish finished wish voice voices
    bottles battles battle cattle title titles little settle kettle
    difference differently unavailable understood understands seventeen seventy wound
    mould cheeks lively lonely reboot charger coding combing coping sometimes
    somethings excerpt reminding retaining otters gmail yahoo hotmail outlook icloud
    writing wandering ruining cunning gunning wanting awaiting possibly rendering rally
    currant currents probable
    """
)
