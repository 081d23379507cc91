"""Values attacked on purpose (tests/data/attacks16_values.jsonl): a phone number in
full-width or Arabic-Indic digits, with zero-width characters or a letter O for a zero,
in another country's national format, seven or eleven digits, with an extension; an
email with a zero-width character, a Cyrillic look-alike letter in its name or its
domain, a dot that ends its name, two dots in a row, no top-level domain, a trailing
dot; a booking, a move or a due day years ahead ("2090"), a year gone by, a two-digit
year; an hour the clocks skip in Los Angeles said by its date. On /v1/ws with the
embedded models and the real CRM stub. Nothing is written that is not the value said,
or the value the question named and the customer said yes to.

FIRST RUN (written before the rules they exercise were read): 28 sessions, 20 held, 8
failed, two of them the probes' own; 6 more written before any fix, 3 held, 3 failed:
- WRONG WRITE: "change my email to maria\u200b.new@example.com" (a zero-width space),
  yes: the email on file became ".new@example.com" (the address lifted from after the
  invisible character);
- WRONG WRITE: "mаria.new@example.com" (a Cyrillic "а"), yes: "ria.new@example.com";
- WRONG WRITE: "maria.new.@example.com" and "maria..new@example.com", no address mail
  can go to, were asked about and written as they were;
- WRONG WRITE: "That time has already passed. When would you like it instead?" answered
  "yes" booked a consultation tomorrow at the hour said ("book a consultation on march 3
  2029 at 10am", and "today at 9am" at noon); "sure go ahead" moved the haircut to its own
  day at the hour said ("move my haircut to january 2 2030 at 3pm"); "ok" and "yes" added
  the to-do without its day ("Call the bank"; "Renew my passport yes", the yes in its
  title);
- the probes': "book a consultation on january 20 2090" and a move there are refused ("I
  can only book up to 12 months ahead"), fair; the probes wanted the year said back.
- held as checked, but read: a phone number in full-width ("４１５-５５５-０１４３") or
  Arabic-Indic digits went to the write with no question (a contact change always
  waits for a yes) as "+1４１５…", refused by the tool's own pattern before the CRM, and
  told "I didn't get the details quite right"; now read as plain digits and asked, and
  the checks say so.
- held: a zero-width space or a letter O in a number, a French or London number said in
  its national form (asked which country), seven or eleven digits, an extension (asked,
  "without the extension 22"), a German number with its +49; an email with a trailing
  dot after it or two, no top-level domain, a non-breaking space or a Cyrillic letter in
  its domain; a past year, "2/3/90", "for 2090" with no day, a due day in 1990 or in 2090;
  the hour the clocks skip on 10 March said by its date (asked, and a yes books nothing).
Fixed: a message's characters are read as they show (language/characters.py, at the
engine's door): invisible format characters out, full-width signs and other scripts'
digits as the plain ones, a Cyrillic or Greek look-alike inside a Latin word as the Latin
letter; an email address begins and ends where a word does and is not one with a dot
first, last or twice in its name (language/text.py); a yes to "that time has already
passed, when instead?" asks again (models/embedded/followup.py, as a yes to "which day?"
did).
Written after those fixes, first run: 1 probe, failed: the tool's own check of an email
(JSON Schema's "email" format) took anything with an "@", so an OpenAI-compatible model
writing "maria..new@example.com" as said would have had it asked about and written. The
tool now checks the shape mail can reach (language/address.py, tools/catalog.py).
Then 3 sessions of two-digit years, first run 2 held, 1 failed: WRONG WRITE, "remind me
to renew my passport by 2/3/90" added it due "Friday, February 3, 2090" (two digits were
always this century's). A two-digit year is now the one of that ending nearest today
(language/dates.py): 1990, a day gone, asked about; "2/3/31" is 2031, "2/3/30" this
year's.
Then 7 sessions of numbers and addresses written the ways people copy them, first run 3
held, 4 failed, all WRONG WRITES on the yes: "+44 (0) 20 7946 0958" was asked and
written as +4402079460958 (the 0 in brackets, dialled only at home, kept); "+1 415 555
01 43 22" as +1415555014322 (twelve digits after +1); "maria,new@example.com" and
"maria;new@example.com" as "new@example.com". Held: "00 44 …" and "011 44 …" (asked
which country; now read as +44 and asked), two numbers said with "or". Fixed: a
number's "(0)" after its country code is dropped, "00" or "011" before nine digits or
more is the "+" dialled from abroad, and "+1" takes ten digits whose area code begins
with 2-9, more or fewer asked about by what is wrong (language/slots.py, replies.py); an
address begins after a space, a bracket, a quote or a colon only (language/address.py).
Then 6 sessions of a yes that puts the detail right in the same breath, first run 2
held, 4 failed, all WRONG WRITES of the detail asked: "yes, 415 555 0144 actually",
"yes the last four are 0134", "yeah except the last digit is 4" to 415-555-0143 wrote
0143; "yes, maria.neu@example.com actually" to maria.new@… wrote maria.new@…. Held:
"yes, but it's 415 555 0144", "yes but it's .org not .com". Fixed (confirmation.py
`says_yes_to`): a yes to a contact change whose reply says another detail of that kind,
digits not in the number asked, or words that put part of it right ("except", "the last
digit", "should be") is no yes to it; the reply is read as her own ask (asked again about
0144, about maria.neu@…).
Then 7 sessions of a yes to another held change that names another item or time in the
same breath, first run (on 509de77) 2 held, 5 failed, all WRONG WRITES: "yes, the eye
exam one actually" to "delete 'Buy groceries'?" deleted the groceries task; "yes, the one
on wednesday" to "cancel your haircut on Sunday?" cancelled the haircut; "yes, 12:30 pm I
mean", "yes, 4pm" and "yeah the afternoon one" to "That's 12:30 AM… book it for then?"
booked it at 12:30 AM. Held: "yes, the one on sunday" (its own day) and "yes 12:30 am is
right". Fixed (confirmation.py `says_yes_to`, given the question asked): a yes whose own
sentence goes on to name an item ("the … one", "I mean", "instead") the question did not
name, or an hour, a half of the day or a weekday the held time is not, is no yes to it;
a question asked after it ("yes go ahead. do I still owe…?") is not of it.
Then 1 probe, first run failed: WRONG WRITE, "yes, but call it buy more groceries" to
"'Buy groceries' is already on your list… add it again anyway?" added a second "Buy
groceries". "call it", "name it", "rename it"… after a yes is no yes to the title asked.
Then 3 sessions, first run (on 509de77) 0 held: WRONG WRITES, "yes, it's for my
daughter" to "That overlaps your haircut… book it anyway?" and "yes it's for my son" to
a night hour booked the visit on her account as hers (asked for another person, a visit
is never booked as hers unasked); LOST, "yes and the eye exam one too" to "delete 'Buy
groceries'?" deleted the groceries and dropped the eye exam without a word. A yes whose
sentence says the visit is another person's is no yes to it; "and the … one too" now asks
about both (the yes naming another item, read as her own ask).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assistant.fakes.world import CATALOG
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, titles

VALUES: Path = DATA / "attacks16_values.jsonl"


async def test_values_are_written_as_said_or_not_at_all(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session writes the value said (or asked about and agreed), or nothing."""
    share, failed = await score(make_assistant, crm_admin, VALUES, capsys)
    assert share == 1.0, failed


def test_an_address_mail_cannot_reach_is_refused_by_the_tool_whoever_wrote_it() -> None:
    """A model (not the embedded grammar) writing the email said, "maria..new@…",
    "maria.new.@…", ".maria@…", "maria@example..com", "maria@-example.com": refused by the
    tool's own check, naming the email, so no question offers to write it; a plain
    address passes."""
    for bad in (
        "maria..new@example.com",
        "maria.new.@example.com",
        ".maria@example.com",
        "maria@example..com",
        "maria@-example.com",
        "maria.new@example",
        "maria new@example.com",
    ):
        error = CATALOG.argument_error("crm.updateContactInfo", {"email": bad})
        assert error is not None and "email" in error, (bad, error)
    plain = {"email": "Maria.N+1@ex-ample.co.uk"}
    assert CATALOG.argument_error("crm.updateContactInfo", plain) is None


async def test_yes_but_call_it_otherwise_adds_no_second_of_the_title_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to buy groceries' is asked about (one is pending); 'yes, but call it buy
    more groceries': no second 'Buy groceries' (a to-do titled as said, or asked, is fair)."""
    tab = await (await make_assistant()).connect()
    asked = await tab.say("add a task to buy groceries")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    events = await tab.say("yes, but call it buy more groceries")
    assert (await titles(crm_admin)).count("Buy groceries") == 1, answer(events)
