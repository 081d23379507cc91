"""Messages that need no tool: greetings, thanks, "what can you do", off-topic asks.

Only classified here; what to answer is the embedded model's (replies.py).
"""

from __future__ import annotations

from typing import Literal

from assistant.language.patterns import Tried, rx
from assistant.language.text import normalize

ChatKind = Literal[
    "greeting",
    "how_are_you",
    "thanks",
    "goodbye",
    "capabilities",
    "what_to_change",
    "services",
    "identity",
    "human",
    "joke",
    "weather",
    "acknowledgement",
    "never_mind",
    "how_to",
    "repeat",
    "hearing",
    "aside",
    "remark",
    "out_of_scope",
    "unclear",
]

# How a day or a week was, said of it in passing ("it's been a crazy week").
_ADJ = r"(?:crazy|long|busy|hectic|rough|tough|hard|mad|wild|stressful|tiring|exhausting|weird)"

# "sorry what? thursday?", "huh? did you say two thirty?", "did you say the 21st?": half
# heard, a word of the answer said back as a question (a caller on a bad line): the answer
# is said again, never read as the day or hour put right.
_HALF_HEARD_SOURCE = (
    r"^(?:sorry|pardon|huh|what)(?:[ ,]+(?:what|sorry|huh))*\s*\?+"
    r"(?:\s*(?:did you (?:just )?say )?[a-z0-9:']+(?: [a-z0-9:']+){0,2}\s*\?+)?\s*$"
    r"|^(?:sorry,? )?did you (?:just )?say (?:the )?[a-z0-9:']+(?: [a-z0-9:']+)?\s*\?+\s*$"
)
_HALF_HEARD = rx(_HALF_HEARD_SOURCE)

_PATTERNS: tuple[tuple[ChatKind, str], ...] = (
    (
        "greeting",
        r"\bjust (?:saying|wanted to say|calling to say) (?:hi|hello|hey)\b",
    ),
    (
        "never_mind",
        r"^(?:(?:oh|ah|ok|okay|actually|no|erm|um|good|great|fine|perfect|right|alright|thanks"
        r"|(?:that's|that is|it's|it is) (?:fine|ok|okay|good|alright))"
        r"[ ,.!]+)*(?:never ?mind|nevermind|scrap that"
        r"|forget (?:it|that|about it)|don't worry(?: about it)?|no worries|ignore that"
        # ("nothing else, bye", "thanks, nothing else": a goodbye, not a let-go)
        r"|cancel that|nothing(?! else)|not to worry"
        # "ok leave it as it is", "keep it then", "hang on": nothing is to change.
        r"|(?:just )?(?:leave|keep) (?:it|them|that(?: one)?|this one|things|both(?: of them)?"
        # "no keep the one you have" (a number told changed elsewhere, and read back)
        r"|the one (?:you have|you've got|i have|on file)|what you have(?: on file)?)"
        # ("fine, leave that one where it is": told of a visit, none to change; "leave it
        # on wednesday then": the day it has)
        r"(?: (?:as (?:it is|they are|is)|where (?:it is|it's|they are)"
        r"|alone|be|for now|then|that way|like that|(?:on|at) (?:\w+day|\d{1,2}(?::\d\d)?"
        r"(?: ?[ap]m)?)))*"
        r"(?:[ ,.!]+(?:i'll|i will|i'd like to|i want to|i'm going to) keep (?:it|them|that)"
        r"(?: then| for now| after all)?)?[ .!]*$"
        r"|(?:hang|hold) on(?: a (?:sec|second|minute|moment))?$)\b",
    ),
    (
        # "ok, I'll let you know", "let me think about it": nothing to do yet, said kindly.
        "never_mind",
        # "wait, let me check with my husband first"
        r"^(?:(?:oh|ah|ok|okay|alright|right|sure|fine|thanks|cool|hmm|um|wait|hang on|hold on)"
        r"[ ,.!]+)*"
        r"(?:i'll|i will|let me|i need to|i'll have to|i'd better)"
        r" (?:let you know|get back to you|think about it|have a think|think it over|sleep on it"
        r"|check(?: with \w+(?: \w+)?)?(?: first)?"
        r"(?: and (?:get back to you|call (?:you )?back|let you know))?"
        r"|call (?:you )?back|come back to (?:you|it|this)|see)(?: later| then| tomorrow"
        r"| soon)?[.!]*$",
    ),
    (
        "how_to",
        r"^(?:so |and |ok |okay )?how (?:do|can|would|should) i (?:\w+ )?(?:book|move|cancel|add"
        # ("how would I update my phone number if I get a new one": the visits were read)
        r"|change|reschedule|complete|delete|pay|open|check|update|edit|remove)\b"
        # "can you tell me how to cancel an appointment", "how would I go about deleting a
        # task": the way asked, said round about (before, the cancel was asked which)
        r"|^(?:so |and |ok |okay )?(?:(?:can|could|would) you (?:please )?)?(?:tell me|explain"
        r"(?: to me)?|show me) how (?:to|do i|can i|i can|i would|i'd)(?: go about)?"
        r" (?:book|mov|cancel|add|chang|reschedul|complet|delet|pay|open|check|updat|remov)\w*\b"
        r"|^(?:so |and |ok |okay )?how (?:do|can|would|should) i go about"
        r" (?:book|mov|cancel|add|chang|reschedul|complet|delet|pay|open|check|updat|remov)\w*\b",
    ),
    (
        # "are you a robot or a real person", "is this like an automated thing": asked what
        # answers, not asked for a person (read before "human", which "real person" is too)
        "identity",
        r"^(?:(?:hi|hello|hey|so|and|wait|sorry|um|uh|ok|okay)[ ,.!]+)*(?:are you (?:a |an )?"
        r"(?:bot|robot|human|real|ai|person|machine|computer|recording)"
        r"|is (?:this|it) (?:a |an )?(?:automated|recorded|robot|bot|machine|computer|ai)"
        r"|am i (?:talking|speaking) (?:to|with) (?:a |an )?(?:robot|bot|machine|computer|ai"
        r"|person|human|real person))\b",
    ),
    (
        "human",
        r"\b(?:human|real person|an agent|a person|representative|operator|someone real"
        r"|speak to someone|talk to someone)\b",
    ),
    (
        # "sorry it's noisy here, what did you say?": the last answer, said again
        "repeat",
        # ("wait which day did you say?", "what time did u say": the same, of a detail)
        r"\b(?:what did you (?:just )?say|(?:which|what) (?:day|time|date|hour)(?: was that"
        r"| was it)? did you (?:just )?say|what was that|say (?:that|it) again|come again"
        r"|(?:can|could) you repeat(?: that| it)?|repeat that|didn't (?:hear|catch)"
        r" (?:that|you|what you said)|missed (?:that|what you said))\b|" + _HALF_HEARD_SOURCE,
    ),
    (
        # "sorry I'm in the car, can you hear me?", "are you still there?"
        "hearing",
        r"\b(?:can you hear me|are you (?:still )?there|you still there|is anyone there)\b",
    ),
    (
        # Said of the call, not to be done: "my wife says hi", "hold on my kid is yelling",
        # "sorry it's really noisy here", "sorry I'm in the car".
        "aside",
        r"^(?:(?:sorry|oh|ok|okay|hold on|hang on|one sec|wait|ha|haha|so|and|by the way)"
        r"[ ,.!]+)*(?:(?:it's|it is|its) (?:really |so |very |a bit |super |kind of )?"
        r"(?:noisy|loud)\b|i'm (?:in the car|driving|outside|at work|on the bus|on the train"
        r"|walking)\b|my (?:wife|husband|partner|kid|kids|son|daughter|mom|mum|dad|friend"
        r"|boyfriend|girlfriend|sister|brother) (?:says|said) (?:hi|hello|hey|thanks|thank you)"
        r"\b|(?:my |the )?(?:kid|kids|baby|dog|son|daughter) (?:is|are|keeps?) (?:yelling"
        r"|crying|screaming|barking|shouting)\b)",
    ),
    (
        # Said of one's own days, to no ask: "it's been a crazy week honestly", "long day",
        # "what a week", "ugh, mondays".
        "remark",
        r"^(?:(?:ugh|oh|ha|haha|well|so|man|honestly|wow|phew|sorry|yeah|ok|okay)[ ,.!]+)*"
        r"(?:(?:(?:it's|it has|its|it) been (?:a |such a |quite a |one )?|what a |such a )(?:"
        + _ADJ
        + r" )?|(?:a |one )?(?:(?:really|very|super|so|pretty) )?"
        + _ADJ
        + r" )"
        r"(?:week|day|month|morning|year)(?: it's been| so far| honestly| to be honest| lol"
        r"| haha| already| for me)*[ .!]*$",
    ),
    (
        # "what do you offer then?", "what services do you have", "what can I book?"
        "services",
        r"\bwhat (?:(?:other |else )?(?:services|treatments|kinds? of (?:appointments?|services"
        r"|treatments)|sorts? of (?:appointments?|services|treatments)) (?:do|can|are|is)"
        r"|(?:else )?(?:do|can) (?:you|y'all|u) (?:offer|do appointments for)"
        r"|(?:else )?can i (?:book|get booked in for|make an appointment for))\b"
        r"|\b(?:which|list (?:the|your)) services\b|\bwhat(?:'s| is) on offer\b",
    ),
    (
        # "I want to make a change", "can I make a change please", "I need to change
        # something": a change asked, nothing named yet (it was asked "When would you like
        # to move it to?", "a change" read as a visit, or told what can be done).
        "what_to_change",
        r"^(?:(?:hi|hello|hey|so|um|uh|ok|okay|yeah|yes|oh|well)[ ,.!]+)*"
        r"(?:(?:i|we) (?:need|want|have|'d like|would like|wanna) to|(?:can|could|may) (?:i|we)"
        r"|i'd like to|let me|i've got to|i got to|i gotta)"
        r" (?:(?:make|do|ask for) (?:a|one|some|a few|a couple of|a couple)"
        r" (?:quick |small |little |tiny )?(?:changes?|edits?|amendments?|corrections?)"
        r"(?: to (?:my|an?|the) (?:booking|bookings|appointment|appointments|account|details))?"
        r"|change (?:something|a few things|some things|a couple of things|a thing|some stuff))"
        r"(?: please)?[ .!]*$",
    ),
    (
        "capabilities",
        r"\b(?:what (?:can|could) you do|what (?:can|could) you help|what do you do"
        r"|how can you help|what are you able|what (?:kind of |sort of )?things"
        r"|what else can you|what can i ask"
        r"|what are your (?:capabilities|features|skills)|what do you help with"
        r"|can you help me|how does this work|options|what (?:kind of |sort of )?stuff"
        r"|(?:don't|do not|dont) (?:understand|know|get) what you (?:can )?do"
        r"|what are you for|what is this for|what's this for|what can i do(?: here| with you)?"
        r"|what do you (?:actually |even |really |exactly )?do)\b"
        # "help", "um help", "help please", "help? thank you": the word alone, whatever filler
        # or politeness is said around it.
        r"|^(?:(?:um+|uh+|er+|erm|hmm+|so|ok|okay|well|hi|hello|hey|yeah)[ ,.!?]+)*"
        r"(?:help|help me|help me out|help out|menu)"
        r"(?:[ ,.!?]+(?:please|pls|plz|thanks|thank you|thx|ta))*[ ,.!?]*$"
        r"|^(?:i need|i want|i'd like|i would like|can i get|can i have) (?:some )?help"
        r"(?: please)?$"
        # "I need to change something", "I need to sort a few things out": an ask to come,
        # named by nothing yet (it was told "Sorry, I can't help with that")
        r"|^(?:(?:hi|hello|hey|so|um|ok|okay)[ ,.!]+)*(?:i|we) (?:need|want|have|'d like|would"
        r" like) to (?:change|sort(?: out)?|update|fix|do|ask about|check) (?:something|a few"
        r" things|some things|a couple of things|some stuff|a thing|a few bits)(?: out)?"
        r"(?: please)?[.!]*$",
    ),
    (
        "identity",
        r"\b(?:who are you|what are you|are you (?:a |an )?(?:bot|robot|human|real|ai"
        r"|person|machine)|your name"
        # "who am I speaking to?", "who is this?": asked of the one answering
        r"|who (?:am i|are we) (?:speaking|talking|chatting) (?:to|with)|who(?:'s| is) this)\b",
    ),
    ("joke", r"\b(?:joke|jokes|funny|make me laugh|riddle)\b"),
    ("weather", r"\b(?:weather|forecast|rain|raining|temperature|sunny|snow|snowing)\b"),
    (
        "how_are_you",
        r"\b(?:how are you|how're you|how's it going|how are things|how do you do"
        r"|what's up|how have you been"
        # "how's your day going?", "how is your week", "how are you doing today"
        r"|how(?:'s| is| has) your (?:day|week|morning|afternoon|evening)(?: been| going)?)\b",
    ),
    (
        "goodbye",
        r"\b(?:bye|goodbye|good bye|see you|see ya|that's all|that is all|that's it"
        r"|that's everything|that is everything|that'll be all|that will be all|all good"
        r"|nothing else|i'm done|i am done|have a good|talk later|take care|good night)\b",
    ),
    (
        "thanks",
        r"\b(?:thanks|thank you|cheers|appreciate it|much appreciated|grateful)\b",
    ),
    (
        "acknowledgement",
        r"^(?:(?:ok|okay|great|lovely|perfect|brilliant|cool|nice|fine|good|super|excellent"
        r"|awesome|fab|fantastic|ta|right|alright|all right|got it|sounds good|that's great"
        r"|that's fine|sure|wonderful|splendid|noted|understood|you're a star|you're the best"
        r"|good to know|(?:that )?makes sense|fair enough|i see|that's good to know"
        r"|legend|nice one|good stuff|ace|sweet|lol|haha)[ ,.!]*)+$",
    ),
    (
        "greeting",
        r"^(?:(?:um|uh|er|erm|oh|well|yeah|ok|okay)[ ,]+)*(?:hi|hello|hey|hiya|howdy|yo|greetings"
        r"|good (?:morning|afternoon|evening|day)"
        r"|morning|afternoon|evening)\b",
    ),
)
_RULES = tuple((kind, rx(pattern)) for kind, pattern in _PATTERNS)
_KINDS = Tried(_RULES)
_WORDS = rx(r"[a-z]{2,}")


def classify_chat(text: str) -> ChatKind:
    """What kind of no-tool message this is; "out_of_scope" for other questions."""
    said = normalize(text).text
    if (found := _KINDS.first(said)) is not None:
        return found[0]
    if len(_WORDS.findall(said)) >= 2:
        return "out_of_scope"
    return "unclear"


_HOW_TO = dict(_RULES)["how_to"]


def half_heard(text: str) -> bool:
    """ "sorry what? thursday?": the last answer half heard, a word of it asked back."""
    return "?" in text and _HALF_HEARD.search(normalize(text).text) is not None


def asks_how_to(text: str) -> bool:
    """`classify_chat(text) == "how_to"`, asked of every request before it is read: only
    a message the how-to pattern finds can be one, so the other kinds (a dozen patterns)
    are tried only then."""
    return _HOW_TO.search(normalize(text).text) is not None and classify_chat(text) == "how_to"
