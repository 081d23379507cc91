"""A bill told paid and asked to be taken off: said of the account, never a to-do.

"I already paid that invoice, take it off" looked for a to-do named "paid invoice" to
delete (the "it" was named by the clause before). No tool takes a charge off; the open
invoices are read, so the answer says what is still owed (and a case may be offered).
Gated by the word "paid" or "sent" in the request.
"""

from __future__ import annotations

from assistant.language.intent import Intent
from assistant.language.lexicon import SERVICES
from assistant.language.patterns import rx

# "paid that invoice", "the bill was paid": a payment told of a bill (not "pay the bill",
# a to-do's own words).
_PAID_BILL = rx(
    r"\bpaid\b(?: \w+){0,3}? (?:bills?|invoices?|balance|charges?)\b(?! (?:task|to-?do|reminder))"
    r"|\b(?:bills?|invoices?|charges?)\b(?: \w+){0,2}? (?:is|was|has been|been) (?:already )?paid\b"
)


# "I paid seventy-five on the cleaning bill", "I sent fifty dollars toward my bill": an
# amount paid toward a bill is a payment told, never a to-do ("pay the water bill") done.
_PART_PAID = rx(
    r"\b(?:paid|sent|put) (?:\$ ?)?(?:\d+(?:\.\d\d)?|[a-z]+(?:-[a-z]+)?) (?:dollars |bucks )?"
    r"(?:on|toward|towards|to|against|off|of) (?:the |my |that |this |our )?(?:\w+ )?"
    r"(?:bill|invoice|balance)s?\b"
)


# "I paid the 150 yesterday", "i sent the money on friday", "I paid online this morning",
# "I already paid for the cleaning": money told paid or sent, which the bills answer (a
# to-do "pay the 150" is on no one's list; "I paid the plumber", "I sent the forms" are
# to-dos done, as before).
_MONEY_TOLD = rx(
    r"^(?:pay|send) (?:the |my |a |an |that |this |some |all the |part of the )?"
    r"(?:\$ ?\d|\d[\d,.]*(?: ?(?:dollars|bucks))?\b(?! (?:emails?|letters?|forms?|packages?))"
    r"|money\b|payments?\b|(?:bank )?transfer\b|deposit\b|cash\b|online\b|in full\b"
    r"|what i (?:owed?|had to)\b|the rest\b|half\b"
    # "I paid already", "I paid yesterday": paid, nothing named (it looked for a to-do
    # "pay already")
    r"|(?:already|(?:just |only )?(?:yesterday|today|this morning|last (?:week|night|month)"
    r"|earlier|a (?:while|bit|few days|week) (?:back|ago)|ages ago|days ago|on time)"
    r"(?: already)?)\W*$"
    r"|for (?:my |the |that |this |our |last )?(?:\w+ )?(?:visit|appointment|session|treatment"
    r"|service|" + "|".join(sorted(SERVICES, key=len, reverse=True)) + r")s?\b)"
)


def of_the_bill(intent: Intent) -> Intent:
    """The delete of a to-do named as a bill told paid, and the completion of one named as
    an amount paid toward a bill, as a read of the open invoices."""
    if intent.kind == "complete_task" and (
        _PART_PAID.search(intent.clause.lower())
        or (intent.target is not None and _MONEY_TOLD.search(intent.target.phrase.lower()))
    ):
        return Intent("billing", clause=intent.clause)
    if intent.kind != "delete_task" or intent.target is None:
        return intent
    if _PAID_BILL.search(intent.target.phrase.lower()) is None:
        return intent
    return Intent("billing", clause=intent.clause)
