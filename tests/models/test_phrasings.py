"""How much of two wider sets of phrasings the planner understands.

tests/data/phrasings.jsonl: casual speech, typos, paraphrases, several requests at
once, dates. tests/data/heldout.jsonl: requests written before the grammar was read
closely, the way customers talk on the phone and in chat (fillers, voice transcripts,
British wording, negations, three or four asks at once, payments it cannot take, which
are answered without a tool). Each line lists
the tools the turn must call, round after round (as ../shared/utterances/dev.jsonl
does), `alt_tools` other right answers, and `confirm` a destructive call that must
end up awaiting confirmation. The planner returns every call it finds (the engine
caps a round), so five lookups asked are five tools here.

tests/data/heldout3.jsonl: 120 single requests written before the rule code was read,
covering all 18 tools (voice transcripts, slang, typos, British and American wording,
indirect asks, several asks at once, questions that only read, and requests that must
not write: hypotheticals, advice, negations, questions whether a change was made, writes
missing a detail). First run 91/120 (75.8%); 93/120 once two expectations were corrected
(a charge complaint may be explained from the open invoices with a case offered). Final
113/120 (94.2%) after: ticket and invoice history reads, past and cancelled visits, "in
the red", time zone, tasks "outstanding" not a bill, "should I delete…?" and "did I
cancel…?" only read (the latter held a cancellation for a yes before), a reminder
"about something" and a priority change with no level ask, "put down <to-do>" adds,
"<task> is renewed tick it off" completes. Then 118/120 (98.3%) with heldout4's fixes:
history reads inside several asks; a change held back or asked about ("I haven't
cancelled anything have I", "don't add anything to my list yet, just tell me what's on
it") reads the listing it names; "has anyone got back to me about my invoice question"
reads the open support cases. Still missed: "can the eye exam be due next friday" (read
as the appointment), "the shopping one" for groceries (no synonyms in target matching).

tests/data/heldout4.jsonl: 62 single requests with two or three asks each, written before
the rule code was read: current and history reads together (past visits, paid invoices,
closed tickets), reads with writes, a write with a negated one ("don't cancel it, just
tell me when it is"), questions about past changes. Any order of the asks is right.
First run 26/62 (41.9%): most misses drop or replace a history read beside another ask.
Final 53/62 (85.5%) after: an ask that names the past ("when did I last come in",
"my old tickets", "appointments I missed or cancelled"; among several also "what have I
paid" and a qualified question such as "my paid invoices") reads the history
(listAppointments, listInvoices, listTickets) instead of what is upcoming or open; a
change held back with a question ("don't book another one", "have I cancelled…") reads
the listing it names and changes nothing. Then 62/62 with heldout5's fixes (a past visit
or a cost asked with no noun is a read of its own; two questions of one kind are both
kept; "did someone close my ticket…?" reads the tickets).

tests/data/heldout5.jsonl: 55 single messages with two or three asks each, written before
the rule code was read: a write beside a read, two writes, an ask that must not write
("don't cancel it", "should I…", "never mind"), joined by "and", "also", "oh and", "plus",
commas, full stops, "then", "after that" or nothing at all (voice). First run 43/55 (78.2%).
Final 55/55 after: a "don't …" clause stands alone (merged, it negated the write before
it; "open", "raise", "log"… now negate); a question said in one breath after a request
is its own ask (the title no longer swallows it); "when did I last come in" and "what's
overdue" (after a task change) read beside another ask; "should I cancel…?" reads what
it names; "never mind" takes back the ask before it; "my ticket about the invoice" reads
no bill; "leave the haircut where it is" holds back.

tests/data/heldout6.jsonl: 50 single messages written before the rule code was read, one to
three asks each, across the tools: reads said loosely ("whats the damage on my account"),
history asked as "every … I've ever had" or "closed", writes said as a state ("groceries
are bought", "the groceries can wait until saturday"), holds and hypotheticals, small talk.
First run 43/50 (86.0%). Missed: "show me every invoice I've ever had" (the open ones
only), "show me my closed support tickets" (the open ones), "what did my last visit cost
me" (the visit, not its invoice), "I paid the dental cleaning invoice yesterday, has it
come through" (read as a task to complete: asked which), "the groceries can wait until
saturday" (refused), "who am I speaking to" (the profile read out), "reschedule everything
on wednesday to thursday" (only listed, where the test's world has nothing on Wednesday).
Then 47/50 after: "closed" may be followed by a word or two before "tickets"; "every …
invoice … ever" is the invoice history, as it is the tickets'; "I paid the <service>
invoice" is said of the bill, never a task to complete; "<a to-do> can wait until <day>"
moves its due day (said of a visit, it is left to ask).
Fifteen more written after those fixes, not tuned on (the last fifteen lines): first run
8/15 (one expectation corrected: the customer has no water-bill task, so "the water bill's
been paid, tick that off" rightly asks which). Missed: "Could you let me know my email and
phone on record?" (refused), "help me log an issue: the reminder texts never arrive"
(answered that no texts can be set up), "what have I paid you so far this year" (the open
invoices), "the eye exam reminder can wait till next month" (listed), "please move the
groceries to the weekend, they can wait" (asked when), "my dental cleaning, can we do it
on the 22nd instead, same time" (asked which). Then 58/65 after: "let me know/see/hear"
asks to be told; a case asked for before words naming what no tool does is still a case;
"issue" and "changes" are no longer "corrected" to "issues" and "charges" (a case's subject
began "S: …", and "what changes did you just make?" read out the balance; it now says the
change just made). Then 59/65: "what have I paid you so far this year" reads the history
(and a history says what is paid apart from what is still owed). 60/65: "who am I speaking
to" is asked of the assistant, not the profile.

tests/data/heldout7.jsonl: 72 single messages written before the rule code was read,
across the 18 tools: dates and times said unusually ("a week on friday", "first monday of
next month", "quarter to five", "noonish", "tomorrow week", "the 30th of February"), reads
of a window or a day, contact changes said loosely, complaints about invoices, tasks said
as needs or states, several asks joined oddly, hypotheticals, negations and things it
cannot do. A line may also give `args`: values every call of a tool must carry (a start
time as the same instant, a task or appointment id, a priority, an address; "title~" a
title containing the words), so a right tool with a wrong date is a miss; and `says`:
words the answer must hold (as the engine speaks it: the planner's own text, else the
narrator's), where asking is the right answer.
First run 55/72 (76.4%). WRONG WRITE (1): "book a facial for tomorrow week at half past
one" booked tomorrow, March 2 (tomorrow week is March 9). Held back where a write was
asked: "don't touch the haircut, but the cleaning can go" (listed, no cancellation held);
"send stuff to my work address instead: <email>" (the profile read out, no change);
"my haircut clashes with work, could it be the 4th of next month at 5pm" (listed, "nothing
booked on April 4"); "fortnight today at 9 in the morning, I'd like a check-up" (asked
when); "I need to remember the car rego", "add picking up the dry cleaning, first monday
of next month", "groceries can be pushed to the 30th" (not understood); "groceries done —
oh and what do I owe you" (only the balance: the dash kept "groceries done" from being
read). Asked wrongly: "first monday of next month, noonish, for a facial please" asked
"What time on Monday" (the coming Monday, not April 7); "noonish tomorrow, haircut, can
you do it" listed the visits and did not take "noonish tomorrow". Reads missed: "anything
on between the 20th and the 25th?", "what have I got on the day after tomorrow", "what's
on for me the first week of april" (refused), "the $150 on my account, what's that for?"
(the profile, for "account"). Four expectations were then corrected, before any rule
changed, where the house already answers otherwise and as well: "noonish" asks the hour
(conversations_unseen4 holds it), so the two noonish lines ask ("What time on April 7",
"What time tomorrow"), a booking at noon also right; "I want to dispute inv_1, …" is
explained from the open invoices with a case offered, as "i want to dispute a charge" is
(conversations_heldout); "I need to sort the gutters out by the end of the month" tells
an errand, offered as a to-do ("a problem told is offered as a case"), adding it also
right. On the code as it was: 56/72. Right tools but a poor answer (not scored): "I was
going to get you to move my cleaning but actually it's fine where it is" asked when to
move it; "whats my account tier and which timezone am i set to" gave the tier only;
"what email and number have you got for me, I think one of them's old" gave the email and
asked for a new number; "I can't do monday anymore" and "leave the groceries on there, I
haven't been shopping yet" were refused ("Sorry, I can't help with that"); "knock the
taxes off my list" listed the tasks without saying none is about taxes.
Then 72/72 after (assistant/language, tests/language/test_heldout7_rules.py): "tomorrow
week", "today fortnight", "a fortnight today/tomorrow/from now", "in a fortnight" are
read as the day they name (a "fortnight" beside a day was left unread, and asked);
"first monday of next month" without "the"; a day and hour said first, then the visit
("noonish tomorrow, haircut"), are read together; "have I got anything on / what's on
for me" takes "the day after tomorrow", "the first week of …", "between the 20th…" and
"in <month>"; a dash between spaces is a pause between asks (not after "my list"); "<a
visit> can go" cancels it, held for a yes; "send stuff/everything/my mail to <address>"
is the address on file (one bill sent somewhere is not); a sum ("$150") asks about the
bills; "I need to remember <thing>" and "add <errand>ing …" add a to-do, "I need to
<errand> by <day>" offers one; "<to-do> can be pushed/moved to <day>" moves its due day;
"<visit named>, could it be <day and hour>" moves that visit; "…but (actually) it's fine
(where it is)" takes the change back ("Okay, I've left your cleaning where it was"; a
move said with "…, actually it's fine" was made before).
Fifteen more written after those fixes, not tuned on (the last fifteen lines): first run
11/15, no wrong write. Missed: "I've got to pick up the dog's meds on thursday" (refused:
"i've" was not read as "I have"), "leave my cleaning alone but the haircut can go"
(nothing: with no comma the "leave … alone" negated the whole), "my haircut's a bit early
for me, could it be the same day at half five?" (listed: "the same day" is no day read),
"the eye exam one can be pushed back to the 15th" (the task's due day moved rightly, but
the appointments were listed first: "eye exam" is also a service). Right tools, poor
answer: "there's a $45 charge from december I don't recognise" read the balance with no
case offered; "my mobile is now 415 555 0166, please update it" ended "I didn't catch what
you meant by 'update it'". Then 86/87 after: "I've got to …" is a need as "I have to" is;
"but <a visit> can go" parts the message as "but don't …" does; "could it be the same day
at <hour>" moves the hour on the visit's day; a charge "I don't recognise" is a complaint
(explained, a case offered); "please update it" after a change asks that change again.
Still missed: the eye exam line (a target that names both a task and a service is looked
up in both, as heldout3's "can the eye exam be due next friday" was).

tests/data/heldout8.jsonl: 75 single messages written before the rule code was read, across
the 18 tools, said by someone in a hurry or not at home in English: words dropped ("cancel
haircut friday", "tasks show"), the wrong tense ("I will want to move my cleaning"),
politeness wrapped round the ask ("would it be at all possible for you to perhaps…"), texting
("pls", "tmrw", "2moro", "b4 5", "thx"); visits and tasks named by what they are rather than
their name ("the 2:30 one", "my earliest appointment", "whatever I have on the 7th", "the
task with no due date", "the one downtown", "the one with Dr Lee", where no staff are known);
conditions and comparisons that may only read or ask ("if my cleaning is before noon move it
to 2"), quantities ("two haircuts", "both done") and ranges; and things it cannot do said as
asks (prices, staff, directions, refunds, a discount), which must not write.
First run 53/75 (70.7%). WRONG WRITES (3): "I was wondering if it would be possible to
maybe move the haircut to saturday, if it's not too much trouble, around 1 o'clock" moved it
to Saturday at 2:30 (the hour said was lost); "two haircuts saturday 10am pls" booked one
haircut and said so as if that was the ask; "book two massages, one saturday 10am and one
sunday 10am" booked Saturday's only (Sunday's lost, said as done). Held back where a write
was asked: "move cleaning tues 9am pls" (asked when), "groceries done thx" ("You're
welcome!"), "make complaint pls: the hairdresser was rude to me" and "open ticket pls, card
charged two time for cleaning" (the open cases listed, none opened), "whatever I have on the
7th, push it an hour later" and "my later appointment, make it 11am instead" (asked which),
"cancel whichever is later" (asked which, "I couldn't find an appointment like that"),
"groceries and insurance, both done" (not understood), "insurance task make low" (listed),
"delete the eye exam one, not need anymore" ("Okay, I won't change anything": "not need"
read as a holding back). Reads missed: "i ask a question about my invoice last week, it is
answered already?" (the balance, not the cases), "which invoices i have paid?" (the open
ones), "when is the one downtown", "which is due sooner, groceries or car insurance?",
"anything next week after 4pm?", "what do I have between monday and wednesday" (refused).
Asked what it cannot say: "how much is a facial?" (the invoice history: "I don't see an
invoice for a facial"), "do you do teeth whitening and how much" (the balance). One
expectation was corrected before any rule changed: "move my earliest appointment to thursday
same time" may find the earliest by the next appointment (it moved the cleaning rightly):
54/75 on the code as it was. Right tools, poor answer (not scored): "did i cancelled the
consultation already" listed the upcoming visits without a word on the consultation; "if my
cleaning is before noon move it to 2" asked "When would you like to move it to?"; "if I have
nothing on thursday book me a facial at 3" spoke of fees; "cancel cleaning pls. actually
dont" said "I won't cancel cleaning please"; "could you kindly give me a discount on the
$150 invoice", "is there parking at the dentist" and "can I get Dr Lee for my cleaning" read
out the balance or the visits with no word on what was asked.
Then 74/75 after (assistant/language, tests/language/test_heldout8_rules.py): a polite "if
possible", "if it's not too much trouble", "if you could" said between commas is no clause
of its own (the hour after it is kept); more visits than one at one time ("two haircuts",
"3 massages") are asked about as a visit for others is, and "…, one saturday 10am and one
sunday 10am" books each ("one" after a booking is another of it); a new time said right
after the visit without "to" moves it; thanks after "done" ("groceries done thx"); a case
asked for without its article ("make complaint pls: …", "open ticket pls, …"; "open tickets"
still lists); "which invoices i have paid" reads the history; "the later/earlier one",
"whichever is later" are the last and the first; "whatever I have on <day>" names the visit
that day, and a shift after "it" ("push it an hour later") is no words of the visit; the
level said after the to-do ("insurance task make low"); two to-dos told done with "both";
a reason after the ask ("…, not need anymore") no longer takes it back; "anything next
week…", "between monday and wednesday", "when is the one downtown", "which is due sooner"
read; "i ask(ed) a question about my invoice, is it answered" reads the cases (and "I sent a
query…" is no to-do done); "do you do <thing> and how much" no longer reads the balance.
Still missed then: "how much is a facial?" (the history read: "I don't see an invoice for a
facial"). The decisions on every phrasing bench.decisions knows changed in one: "push it
back two days" with nothing in view listed the visits and the tasks and now lists the
visits (its target was "it back two days"; with a visit in view it is unchanged).
Fifteen more written after those fixes, not tuned on (the last fifteen lines): first run
11/15, no wrong write. Two expectations were corrected as unfair: "the cheapest invoice, is
it paid?" read the open invoices and the history (both answer it: the $45 haircut, paid);
"if my haircut is on friday, cancel it" held the cancellation for a yes, as the house does
when the condition holds (conversations_unseen10 holds "if my haircut is on the weekend
please cancel it"; when it does not hold, it only reads). Missed: "pls cxl my appt monday"
(listed: "cxl" unread), "the high priority one, push it to the 12th" (asked which
appointment to move). Then 89/90 after: "cxl", "canx", "resched" are shorthand for cancel
and reschedule; a move aimed at what only a to-do has (a priority, no due date) moves that
to-do's due day. Then 90/90: a price asked of a service ("how much is a facial?", "what does
a massage cost") says no price list is kept, with what the customer was charged for one
before, and offers a case for a quote; its check was changed from "reads nothing" (stricter
than asked: the brief's things it cannot do must not write) to "may read the history, and
says 'price list'". Right tools, poor answer (not scored): "anything next week after 4pm?"
lists both visits without the hour weighed; "which is due sooner, groceries or car
insurance?" lists the tasks and adds "I didn't catch what you meant by 'groceries or car
insurance'"; "book two facials, one … and one …" (a service outside the vocabulary, its
plural not read as one) is refused as "a two facials". Put right since: "cancel cleaning pls.
actually dont" now says "I won't cancel your cleaning" (it said "cleaning please").

tests/data/heldout9.jsonl: 56 single messages written before the rule code was read, across
the 18 tools, said wrongly or incompletely: services by the wrong name ("my hair
appointment", "teeth cleaning", "the physio thing", "the eye doctor", "the barber"), days
that do not exist or do not agree ("the 31st of february", "next tuesday the 17th" when the
17th is a Monday, "thursday the 7th" when the 7th is a Friday), a visit or a to-do that does
not exist named confidently ("cancel my pedicure", "tick off the dentist task"), verbs mixed
up ("cancel my haircut to friday", "book the car insurance task for monday", "add an
appointment to buy milk"), two values at once ("saturday at 3 or 4", "at 10am on monday at
2pm", two emails), and claims about the account ("I already paid that invoice, take it
off", "my ticket was resolved, close it").
First run 40/56 (71.4%); 43/56 with three checks corrected before any rule changed (the
check was wrong, the answer right: "when am I seeing the eye doctor" read the visits and
their history and said no eye exam is booked; "the physio thing" was booked as "Physical
therapy"; Friday the 14th at 10 is 10:00-07:00, after the clocks change). WRONG WRITES (4):
"book a haircut saturday at 3 or 4" booked 3pm; "book a massage at 10am on monday at 2pm"
booked 10am; "make the eye exam due monday or tuesday" made it due Monday; "change my email
to maria@gmail.com or maria@yahoo.com" changed it to the first. A destructive call held that
was not asked: "cancel my haircut to friday" held the cancellation (asking "…go ahead with
crm.cancelAppointment?"). Held back where a write was asked: "push the barber to 4 same day"
(asked when), "reschedule the groceries appointment to monday" (looked for a visit), "book
the car insurance task for monday" (asked what to book), "add an appointment to buy milk on
sunday" (read the visits), "remove my phone number and put 415 555 0199" (refused as a
removal). Read wrongly: "I already paid that invoice, take it off" (looked for a to-do named
"paid invoice"), "show my tickets from last year" (the open cases only), "complete my haircut
appointment" (looked for a to-do named haircut).
Then 53/56 after (assistant/language, tests/language/test_heldout9_rules.py): two values for
one change ("at 3 or 4", "thursday or friday", "at 10am on monday at 2pm", two addresses or
numbers) are asked about, for a visit's time or day, a to-do's due day, a contact detail (a
title's "2 or 3 lemons", "3 or so", a value put right, a visit's own hour are not), and the
reply takes their place ("4pm" books 4pm on the day said; "thursday at 10" moves it to
Thursday); a cancel said with a move's "to <day or hour>" asks "moved, or cancelled?", and
"move it" or "cancel it" after that does the one said; a to-do "booked" for a day ("book the
car insurance task for monday") is made due then; an errand called an appointment ("add an
appointment to buy milk") is a to-do; a bill told paid and "taken off" reads the open invoices
(no to-do deleted); tickets "from last year", "from last month" read the history; "remove my
phone number and put <new>" changes it (a removal alone is still the team's). One check was
corrected as unfair: "cancel my cleaning to wednesday at 3" may ask without reading the
visits first (asking after a listing was already right). No decision changed on the phrasings
bench.decisions knows. Still missed: "push the barber to 4 same day" (a bare "to 4" is asked
about, as the house does for any visit), "reschedule the groceries appointment to monday" (a
to-do called an appointment: the visits are searched), "complete my haircut appointment"
(looked for a to-do named haircut; no write).
Fifteen more written after those fixes, not tuned on (the last fifteen lines): first run
13/15, no wrong write. One check was corrected as unfair: "my support ticket from january, is
it closed yet" read the open and the closed cases (both answer it). Missed: "book my groceries
for wednesday" (a to-do booked by its name alone, with no "task": refused as a service not
offered; no write). Right tools, poor answer (not scored): "make the cleaning 2pm, or 3pm if 2
is taken" lists the visits and says "or 3pm if 2 is taken" was not understood, where asking
which time would do better; "can you cancel the haircut? I want to go to friday's class
instead" (found outside the set) moves the haircut to Friday "already there" (as on main).

tests/data/heldout10.jsonl: 61 single messages written before the rule code was read, across
the 18 tools, said indirectly: requests told as statements or stories ("I'm not going to
make it to my haircut on friday", "my cleaning clashes with a work thing on monday", "I've
got a new number", "the insurance is sorted"), polite and hedged ("I was wondering if it'd
be possible to…", "would you mind terribly…", "it'd be great if…"), conditions ("if the
cleaning is before 11 push it to the afternoon", "only if there's nothing else that day"),
wants said by what must not happen ("I don't want to be charged twice", "I don't want the
cleaning cancelled, just moved…"), questions that sound like orders ("can you tell me if my
haircut is cancelled?" must not cancel) and orders that sound like questions ("how about
moving my cleaning to tuesday at 9?"), and long messages whose ask comes last after a story.
First run 37/61 (60.7%). WRONG WRITE (1): "the haircut's fine where it is, it's the cleaning
I need to move, to friday at 9" moved the haircut to 9am on Friday. Offered a write the
condition forbids (no write, a yes would have made it): "put me down for a massage on monday
at 3 only if there's nothing else on that day" asked "Would you like me to book a massage on
Monday at 3 PM?" without looking (the cleaning is that day). Held back where a write was
asked: "I'm not going to make it to my haircut on friday" and "I won't be needing the friday
appointment anymore" (listed, no cancellation held); "if it's not too late, I'd like to
cancel the haircut" (both visits listed, "cancel it?" asked, nothing held); "the car
insurance got renewed yesterday" and "the groceries don't need doing until wednesday now"
(refused); "no need to keep the groceries on there, I did the shopping this morning" (looked
for a to-do "shopping morning"); "I don't want the groceries on my list anymore" (listed);
"I was wondering if it'd be possible to book a massage on tuesday at 3" (refused); "would you
mind terribly moving my haircut to saturday at 11" and "how about moving my cleaning to
tuesday at 9?" (listed: "nothing booked on Saturday/Tuesday"); "it'd be great if the eye
exam task could be high priority" (asked "Would you like me to go ahead with that?"); "book
me a facial on thursday at 4, but only if there's nothing else that day" (asked to confirm,
unlooked); "if my haircut is still on friday, make it saturday same time" (listed); "I don't
want to miss my haircut, can you put a reminder in for thursday" (asked what the task should
say); "I don't want the cleaning cancelled, just moved to thursday at 10" ("Okay, no
problem"); the sister story ending "Could you move it to the 14th at the same time?" (asked
which visit, the haircut named before); the online booking story ending "Could you raise this
with your tech team?" (not understood, no case); the plumber story ending "can you stick it
on my list for tuesday" (listed the tasks). Reads missed: "I don't use
maria.garcia@example.com anymore" (refused, where the new address is to be asked), "I'd
quite like to see my old support tickets" (the open ones), "I'm trying to remember when I
last had a haircut" (the upcoming one), the story ending "Has anyone actually replied to
that?" (looked for to-dos "call week invoice"…). Right tools, poor answer (not scored): "if
the cleaning is before 9 move it to 2pm" (at 10, it is not) offered "move it to today at 2
PM?"; "I'd appreciate it if you didn't book anything else for me on friday" said "an anything
else isn't one of the services offered"; "could you check whether the groceries are done"
said no task matches "check whether groceries"; a story before "What do I actually owe right
now?" ended "I didn't catch what you meant by 'forth with my bank about it'…". One check was
corrected before its rule changed: "book me a facial on thursday at 4, but only if there's
nothing else that day" may read the visits and ask (as the house asks for any change on a
condition, conversations_conditions); the first run asked without looking, still a miss.
Then 59/61 after (assistant/language/indirect.py, tests/language/test_heldout10_rules.py):
"I was wondering if it'd be possible to…", "would you mind (terribly) <verb>ing…", "how
about <verb>ing…", "any chance of <verb>ing…" are the ask inside; "it'd be great / it would
help me out if <thing> could be <value>" is "make <thing> <value>"; "it's the cleaning I need
to move" changes the cleaning; "I don't want it cancelled, just moved to…" moves it; "I'm not
going to make it to <visit>", "I won't be needing <visit>" cancel it, held (with a day or
hour after, the visit is named and moved); "I don't want <to-do> on my list", "no need to
keep <to-do> on there" delete it, held; "<to-do> doesn't need doing until <day>" moves its
due day; "got renewed yesterday" completes; "I don't use <address> anymore" asks for the new
one; "make <visit> <day or hour>" moves it (not "make an appointment", not "can't make");
a polite "if it's not too late," said first is no condition; a change on a calendar
condition ("only if there's nothing else that day", "as long as I've got nothing on") reads
the visits before asking; "I don't want to miss <thing>, put a reminder in for <day>" is a
reminder about it; "it" after a story is the visit the story named; an errand told ("I've
been meaning to…", "I need to…") then "stick/put it on my list" adds that errand (found
outside the set: "I need to call the plumber about the leak under the sink, can you put it
on my list for tuesday" added a task titled "Can you" on main, a WRONG WRITE); "raise this
with / pass this on to your <team>" opens a case; "has anyone (actually) replied" reads the
cases; "I called last week about the invoice" is no to-do done; "get annoyed" books nothing.
No decision changed on the phrasings bench.decisions knows. Still missed: "no need to keep
the groceries on there, I did the shopping this morning" (the deletion held, and "the
shopping" is no word of "Buy groceries": no synonyms in target matching), the annoyed
caller's story (the open cases read, and the balance beside them for "they'd look into
it"). Right tools, poor answer (not scored): "put me down for a massage on monday at 3 only
if there's nothing else on that day" now reads the visits but still offers the booking
without saying the cleaning is that day.
Twelve more written after those fixes, not tuned on (the last twelve lines, "block": 2):
first run 9/12, no wrong write. Missed: "honestly the cleaning on monday just isn't going
to happen, I've got a deadline" (listed), "it would really help me out if the groceries
could be due on monday instead" (asked "move it to Monday?" of the visits), "if there's
still nothing on saturday, I'd like a massage at 11 then" (offered a massage "tomorrow at
11": the day said in the condition lost, no read). Right tools, poor answer (not scored):
"I'd hate to be charged for the cleaning if I cancel it, so don't cancel anything yet, just
tell me what I owe" read the balance and ended "Would you like me to cancel it?". Then
71/73 after: "<visit> isn't going to happen / won't work" cancels it, held; "it would
(really) help (me out) if…" as "it'd be great if…", a thing of any words; "if there's still
nothing…" is a calendar condition, and a day said in it is the day an hour alone is booked
(read with the visits first); a reason told after a cancel ("I've got a deadline") is no
second visit to cancel ("I couldn't find an appointment like that" was said beside the
held cancellation).

tests/data/heldout11.jsonl: 60 single messages written before the rule code was read, across
the 18 tools, as a phone caller's speech arrives from speech recognition (no punctuation, no
capitals): self-corrections inside one message ("cancel the cleaning no wait the haircut",
"move it to thursday sorry friday at three", "book a massage for uh make it a facial"),
false starts and repeats ("i want to i want to move my my haircut"), fillers ("um", "like",
"you know"), words heard for others ("two saturday", "at for", "hair cut", "dentist
cleaning"), hours said in words ("two thirty", "half past four", "quarter to ten") with no am
or pm, phone numbers and addresses spoken ("four one five…", "maria dot garcia at gmail dot
com") and messages cut off ("and also can you", "can you cancel my").
First run 52/60 (86.7%). WRONG WRITES (2, and one held): "book a massage for uh make it a
facial tuesday at two" booked the massage (the first of two services said); "book a cleaning
on thursday at nine no ten no actually nine" booked 10am (the middle of three hours: hours in
words were not read as put right, only "at 9 no 10" in digits; said with stops, "at 9. no
10. no actually 9" booked 9 PM, a bare hour before a morning one read in the afternoon); "so
i was going to cancel my cleaning but um" held the cancellation for a yes (a half-said ask).
Held back where a write was asked: "mark groceries actually the insurance one done" (asked
which), "cancel the haircut i mean not cancel move it to saturday same time" (asked which
visit to move), "the insurance is done no wait not the insurance the groceries" (refused),
"um the eye exam thing can you make it due friday the seventh" (asked which to-do). Read
missed: "do i have any any appointments i cancelled" (the upcoming ones). Found beside the
set, on the code as it was: "mark the groceries done. actually the insurance one" completed
the groceries (a WRONG WRITE), "book a massage on tuesday at 2. actually make it a facial"
booked the massage, "mark the groceries done. sorry, i meant the insurance one" was refused.
Then 60/60 after (assistant/language/said_again.py, tests/language/test_heldout11_rules.py):
a service said over ("a massage for, make it a facial", "the haircut on friday no the
cleaning on monday") is the one said last, the day said with the first kept unless the
second has its own; a to-do named again as "the … one" after one told done or deleted is
that one ("done" kept); the very words taken back with "not" ("not the insurance, the
groceries") are replaced by what follows them; a change said over by another aimed at "it"
("cancel the haircut, I mean not cancel, move it…") is the second only; "I was going to
<ask> but" with nothing after is taken back; an hour put right in number words is read as
in digits, and a bare hour before a morning hour is read as a bare hour is (9am, not 9pm);
"the <thing> thing, can you <change> it" names the thing first; "appointments I cancelled"
or "I've missed" read the history. No decision changed on the phrasings bench.decisions
knows.
Twelve more written after those fixes, not tuned on (the last twelve lines, "block": 2):
first run 8/12. WRONG WRITES (4): "book me a facial on wednesday at quarter past two no half
past two" booked 2:15; "book a haircut tuesday the eleventh at ten um you know what make it
eleven" booked 10am (and said "make it 11" was not understood); "mark the eye exam done no
wait dont mark anything just tell me whats on my list" completed the eye exam (typed with
stops, "mark the eye exam done. no wait, don't mark anything" did too); "move the haircut to
saturday at two no wait keep it on friday just make it four" moved it to Saturday at 2:30.
Then 72/72 after: "half past"/"quarter to" after an hour puts it right as a bare hour does;
"you know what" before "make it…" is a change of mind ("actually"); "<ask>, no wait, don't
<do> anything/that/it" takes the ask back whole and reads what follows ("it" there is what
the ask named: "move my cleaning to friday actually don't change anything just tell me when
it is" moved the cleaning on main, and now reads when it is); "keep it on <day>, make it
<hour>" (or "keep it at <hour>, make it <day>") keeps the one and puts right the other.
No decision changed on the phrasings bench.decisions knows.

tests/data/heldout12.jsonl: 56 single messages written before the rule code was read, across
the 18 tools, as requests with several constraints and quantities, where a wrong value is a
wrong write: ordinals and counts ("the second appointment next week", "the earlier of my two
appointments", "the last two tasks", "add three tasks for sunday: …"), relative times stacked
("the week after next on the tuesday at half ten", "two hours after my cleaning starts", "the
3rd of next month", "the second tuesday of next month", "an hour and a half later", "2 days
later at the same time"), limits that must be asked about ("sometime after 3 on thursday",
"before noon any day this week", "the end of the day on thursday"), details carrying numbers
(a phone number said in groups, "j dot smith at example dot com", "maria underscore g",
invoice, case and order numbers kept in a title or a case), items named by attributes ("the
high priority one", "the task due soonest", "the one with no due date", "the one at the
valencia street place", "the one on market street") and exclusions ("everything except…",
"all my tickets except the open ones").
First run 38/56 (67.9%). WRONG WRITES (2): "move my cleaning to sometime after 3 on thursday"
moved it to Thursday at 10 (the limit unread, the old hour kept; "after 3pm" moved it to 3pm
itself, and "before 11" kept 10); "add three tasks for sunday: call the vet, buy stamps and
water the plants" made only the first due Sunday (the day said once for all was the first
item's). Read as another change (no write, a target not found): "mark the high priority one
done" was read as a priority change ("mark … high"), asked which. Held back where a write was
asked: "book a facial two hours after my cleaning starts" ("I can't work out a day from
another appointment yet"), "cancel the earlier of my two appointments" (asked which: "two"
was read as a word of its name), "move the one at the valencia street place to saturday at
11" (listed the visits and the tasks: "street" is "St" on the address), "move the cleaning an
hour and a half later" (asked when), "make the one with no due date due on the 3rd of next
month" (looked for a task "no"), "make both the groceries and the eye exam high priority"
(listed everything), "the insurance task, make it due a week later than it is" (listed),
"mark the last two tasks on my list done" (looked for a task "two"), "the cleaning on monday,
make it 2 days later at the same time" (not understood). Read wrongly: "when is the one after
my cleaning" and "what's my next appointment after monday's" (the cleaning told), "which of my
cancelled appointments was at the main office" (the past haircut), "i paid 45 dollars a while
back, which invoice was that for" (the balance, and a task looked for), "show me all my
tickets except the open ones" (the open one). Two checks were corrected as unfair, the write
right: "move the haircut to the day after the cleaning, same time" read the visits twice
before the move; "cancel the earlier of my two appointments" may find the earlier by the next
appointment (as heldout8's earliest does): 39/56 on the code as it was.
Then 51/56 after (assistant/language, assistant/models/embedded, assistant/resolve.py;
tests/language/test_heldout12_rules.py): an hour given as a limit ("after 3", "before 11",
"no earlier/later than 4", "not before 4pm", "by 11") is asked, for a visit moved or booked
(a to-do's note keeps it); a day said once for several to-dos, before them ("for sunday: …")
or after them ("…, both for friday"), is each one's due day; a shift of "an hour and a half",
"two and a half hours" is read whole; "<visit named>, make it <shift>" moves it by the shift
(and "at the same time" after a shift of days keeps its hour); "the high/low priority one"
names the item meant, never a new level (a level said after it still is one); "the one
with/without (a) due date" keeps its words before "due"; "of my two" says how many there
are; a visit said "at/on the <street> place/clinic" is matched on its address as written
("St", "Ave") and never looked for among the to-dos; "tickets except / that aren't open"
read the closed cases; one change said once for two to-dos ("make both X and Y high
priority", "set X and Y due sunday") is made to each; "make <to-do> due a week later (than it
is)" moves its due day by the shift; "<n> hours after/before my <visit> starts" is that
visit's day at that hour (said without "starts", from its start or its end is not known, and
it is asked as before). No decision changed on the phrasings bench.decisions knows. Still
missed: "when is the one after my cleaning", "what's my next appointment after monday's"
(the cleaning told: a question about the visit beside another one is not read), "which of my
cancelled appointments was at the main office" (the place is not read in a history
question), "mark the last two tasks on my list done" (asked which: several counted from an
end are not read; nothing written), "i paid 45 dollars a while back, which invoice was that
for" (a sum paid is not looked for in the paid invoices).
Twelve more written after those fixes, not tuned on (the last twelve lines, "block": 2):
first run 10/12, no wrong write. Missed: "the task that's high priority, push its due date
back three days" (a visit looked for: "its" named nothing), "what's due first, the insurance
or the groceries" (the balance read beside the to-dos). Then 63/68 after: "<to-do named>,
<verb> its due date …" is a change of that to-do's due date, and "the task that's high
priority" keeps its level as its own words; "what's due first/sooner" compares the to-dos
(a bill alone is still "what's due"). Right tools, poor answer (not scored): the latter ends
"I didn't catch what you meant by 'the insurance or the groceries'", though the to-dos it
read say which is due first; "push the cleaning back by half an hour and book a facial an
hour after it" moves the cleaning and asks when to book the facial.

tests/data/heldout13.jsonl: 61 single messages written before the rule code was read, across
the 18 tools, as speech recognition and speakers of English as a second language produce
them, where a misread is a wrong write: homophones ("for too thirty", "at for", "the won at
ten", "ate am", "dun", "the forth", "to the eight at two", "to day", "hi priority"), hours and
days in every written form ("2 30", "230pm", "two thirty p m", "14:30", "half 3", "3 o clock",
"at 1030", "10.30", "15h", "9h30", "at ten hours", "apr 16", "16/03", "3/14", "the 16th"),
words split or joined ("hair cut", "re schedule", "dentalcleaning", "to morrow", "after noon",
"appoint ment"), fillers and restarts, a learner's grammar ("tomorrow I want cancel the
haircut", "you can to move my cleaning at friday?", "please make done the groceries", "in the
sunday", "more late", "same hour", "change it for tuesday", "i dont need it no more", "when i
came last time"), politeness wrapped round the ask ("would it be possible perhaps that my
haircut could be moved…"), two asks run together, and misheard words that must not become a
write ("book a haircut for tuesday" asks the hour; "is the eye exam dun yet" only reads).
First run 34/61 (55.7%). WRONG WRITES (5): "book facial for the forth at too" booked today
at 2 ("the forth" unread); "move the haircut from friday to the eight at two" moved it to
Friday at 2 ("the eight" unread); "move the cleaning to 9h30 thursday" moved it to Thursday
at 10 (the hour lost, the old one kept); "re schedule my cleaning to thursday at 11" booked a
second cleaning ("schedule" read alone); "to morrow remind me to buy stamps" added the to-do
with no due day (typed, "tomorrow remind me to…" did too: a day said before the ask was
lost). Held back where a write was asked: "book a haircut on thursday for too thirty", "book
a facial on the 14th at 2 30", "book a haircut at 1030 tomorrow", "book massage 10.30
tuesday", "i want a haircut at 15h on wednesday", "you can to move my cleaning at friday?"
(each asked the hour), "cancel the won at ten" (asked which), "mark the eye exam dun" and
"please make done the groceries" (listed the visits), "add a task to pay the rent on 16/03"
("16/03 isn't a date"), "i need a dentalcleaning on friday at 9" (refused), "I have a
appointment on monday, I want change it for tuesday same hour" (asked which), "the groceries,
i did them already" (looked for a task "them already"), "move my cleaning 2 hours more late"
(asked when), "delete the insurance task i dont need it no more" ("Okay, I won't change
anything"), "i would like to open ticket because the invoice is wrong…" (listed the cases and
the balance), "would it be possible perhaps that my haircut could be moved to saturday at
eleven" (listed everything), "i was wondering if maybe the groceries could go to low priority
if its ok" (read out the low-priority task). Read wrongly: "when i came last time for hair
cut" (the coming haircut), "is the eye exam dun yet" (the visits), "do i have anything on the
forth" (refused). No check was found unfair.
Then 61/61 after (assistant/language/heard_forms.py, tests/language/test_heldout13_rules.py):
an hour written "2 30", "230pm", "at 1030", "10.30", "15h", "9h30", "at ten hours" is read as
"2:30" is (digits after a word that puts a time, or before am/pm; not a phone number, a sum
or what they count; "2h later" stays a length); a day written first where it cannot be a
month ("16/03") is that day; "the forth" is the fourth, "the won" the one, "to day" today,
"dun" done, "too thirty" an hour; a day of the month said as a cardinal after "on/for/to …
the" with an hour or nothing after it ("to the eight at two") is that day, and so is "on the
first … fifth" said last; "re schedule", "appoint ment" are one word, and two names run
together ("dentalcleaning", "eyeexam") two; "you can to <verb>", "can you to <verb>", "you
can <verb>…?" said first ask it, "I want <verb>" is "I want to <verb>", "at/in (the) <day>"
is "on <day>" (after a move's verb, "to <day>"), "more late/early" later/earlier, "same hour"
the same time, "make done <to-do>" marks it done, "<verb> it for <day>" moves it to that day;
a day said before "remind me…/add a task…" is the to-do's due day; "…(because) i don't need
it anymore/no more" said in one breath after a delete is its reason, not a take-back;
"<to-do>, i did them (already)" is that one done (a time said after it is no words of it);
"when (did) i came/come … last time" reads the history; "would it be possible (perhaps) that
/ I was wondering if (maybe) <thing> could be/go to <value> (if it's ok)" is "make <thing>
<value>" (a move, for a visit); "I have an appointment on <day>, … it" is the one that day;
"i would like to open ticket because…" opens it. The decisions on every phrasing
bench.decisions knows changed in one, a wrong write on main put right: "update the eye exam
task to be due next friday" (phrasings.jsonl, checked by its tools only) retitled the to-do
"Be due next friday" in round 2; it now makes it due March 7 ("change/update <to-do> to be
due <day>" is read as "set" was).
Twelve more written after those fixes, not tuned on (the last twelve lines, "block": 2):
first run 9/12, no wrong write. Missed: "book a haircut for tree thirty on monday" (asked the
hour), "change the groceries for be due on monday" (not understood), "um yeah so the the
insurance task uh can you put it hi priority no wait low" (looked for a task "yeah
insurance"). Then 73/73 after: "tree" before minutes is "three"; "for be" is "to be", and
"change/update <to-do> to be due <day>" moves its due day; "yeah", "yep", "yup" are no words
of a target. Right tools, poor answer (not scored): "the groceries, i did them already"
completes the groceries and still says "I didn't catch what you meant by 'the groceries'"
(as "the groceries, i did it" does on main).

tests/data/heldout14.jsonl: 72 single messages written before the rule code was read, aimed
at what earlier sets covered least, where a misread is a wrong write: contact details
(numbers with dashes, dots, brackets, "+1", "+44", said in words with commas; an email said
half in words; a number for someone else; a partial one, "the last digit is 7 not 1"; one cut
short; "same number, new phone"; a work number beside the cell that is kept; "change my
number back"; a condition on what is on file; a new postal address), bookings and moves with
days said in unseen ways ("the 3rd of next month", "a fortnight from friday", "the weekend
after next", "first thing tomorrow", "end of the day thursday", "any time after 4 on
tuesday", "whichever day you have free", "same day as my haircut but earlier", "the tuesday
after next", "a week tomorrow", "half ten in the morning", "earlier that day instead"),
cancels and deletes hedged or conditional ("if it's before noon", "I might need to", "should
I", "don't cancel, just move it", "everything except", "unless it's due today", "I was going
to… but I'll keep it", a bare "cancel it", a visit put right mid-sentence), questions that
look like commands ("can you tell me how to cancel", "what happens if", "is there a fee",
"what would it cost to move", "what's the latest I can cancel"), and reads and writes mixed
two to four in one breath.
First run 64/72 (88.9%). WRONG WRITES (2): "my work number is 650 555 0134 but keep my cell
as the main one" replaced the phone on file (the engine asks a yes first; the customer had
said to keep it); "what's the latest I can cancel my cleaning?" held the cleaning's cancel
for a yes. Held back where a write was asked: "my phone number is +44 20 7946 0958 now that
I've moved to London" (the postal address refused), "cancel the cleaning if it's before noon"
(read and asked), "cancel the one on friday, actually no, cancel the monday one" (looked for
a task "friday" and asked), "is my cleaning still on monday? if so push it an hour later"
(asked when). Missed, nothing written: "delete the groceries task unless it's due today"
(looked for a task "groceries unless"), "add a task to renew my passport by the end of the
month and show me everything due this week" (added, and read every kind of thing). One check
was corrected to the house's rule (a condition that does not name the item is asked, as
heldout12's "if the cleaning is before 11 push it to the afternoon"): "delete the groceries
task unless it's due today" now asks (it was missed either way).
Then 72/72 after (assistant/language, assistant/models/embedded; tests/language/
test_heldout14_rules.py): a second number or email told beside the one on file that is to
stay ("my work number is …, keep my cell as the main one", "… as a backup", "… but don't
change my cell") changes nothing and says one of each is kept; a deadline or price asked of
a change ("what's/when's the latest I can…", "is it too late to…", "how much notice…", "until
when can I…", "how much would it cost to…") is a question, answered as "what happens if" is;
the way asked round about ("can you tell me how to…", "could you explain how to…", "how
would I go about …ing") is told as "how do I…" is; "I've moved" is the postal address only
when no number or email is said, and "new address: …" is one; a condition said after the ask
that names the visit ("…if it's on friday", "…if it's in the morning/before noon") or asked
first and leaned on ("is my cleaning still on monday? if so …") is read as the visit it
names, as "if my cleaning is on monday, move it…" was (found, the change is made or held;
not found, "I don't see a haircut in the morning" and which is asked); a condition after a
"…task" is one (the "ask" in "task" had hidden it: the condition's words were looked for in
the title); "the monday one" and the like are no task's name, so a visit named by its day
and put right is the one said last; "everything due" reads the to-dos, as "what's due" does;
"I can't make friday (anymore)" reads that day's visit (it was booked as a service "friday
anymore"). No decision changed on the phrasings bench.decisions knows.
Eleven more written after those fixes, not tuned on (the last eleven lines, "block": 2):
first run 11/11, no wrong write. Right tools, poor answer (not scored): "could you explain
how to change my phone number" asked for the new number ("explain how" without "me" was not
the way asked); now told as "how do I…" is. Still poor (not scored): "same number, new
phone, so nothing to change really" asks "What's the new phone number?"; "do I need to mark
tasks done myself?" tells the completed task; "am I able to reschedule the haircut online?"
asks when to move it.

tests/data/heldout15.jsonl: 77 single messages written before the rule code was read, aimed
at what earlier sets covered least, where a misread is a wrong write: voice transcripts with
fillers and self-repairs ("book a haircut on friday no saturday at 3", "cancel my um the the
haircut no the cleaning"), hours in words and homophones ("too ten a m", "move the haircut
to 4", "eleven ish"), polite and British wording ("I'd be ever so grateful if you'd…", "half
ten", "tuesday week", "reckon you could", "cheers, could you pop…"), typed shorthand ("need
a haircut sat 11am ta", "for wed", "resched my appt on mon to tmrw"), conditions and
comparisons ("unless I already have something that day", "only if it's the haircut",
"whichever is earlier, thursday or friday", "if the groceries are already overdue…"),
negations and exclusions ("everything but the groceries is done", "not the haircut, the other
one", "my number's not changing, only my email", "I might cancel the cleaning later, not
now"), to-do edits (rename, retitle and note, several levels at once, a due day "the same
day as my haircut"), quantities and ranges ("my next two appointments", "my last 2 visits",
"anything on my bill over $100?"). A line may also give `some` (each value carried by one
of a tool's calls: several items changed in one turn) and `none` (no call of the tool
carries it: the item left alone, the detail that stays; "*" the key at all).
First run 55/77 (57/77 with two checks corrected to the house's rule: a bare "sunday" is
the coming one, and a detail said to stay may be read back with the profile). WRONG WRITES
(5): "need a haircut sat 11am ta" booked tomorrow at 11 ("sat" unread); "not the haircut,
the other one, cancel that" held the haircut's cancel; "I might cancel the cleaning later,
not now" held the cleaning's cancel; "retitle the insurance to-do as renew car and home
insurance and give it a note…" retitled it "As renew car and home insurance" (the note
lost); "can u add pick up dry cleaning to my to do list for wed" added it with no due day.
Held back where a write was asked: "cheers, could you pop the car insurance down to normal
priority" (a thank-you), "I'd be ever so grateful if you'd cancel the haircut", "cancel my
friday appointment but only if it's the haircut", "if the eye exam task has no due date, set
it for the 10th", "move my cleaning to whichever is earlier, thursday or friday, same time",
"cancel my next two appointments" (each asked); "all my tasks are done except the eye exam
one" (read the done ones), "I never asked for a haircut on friday, get rid of it" (asked the
hour of a booking, and which task), "the cleaning's fine where it is, it's the haircut that
needs to go to saturday at 1", "my number's not changing, only my email: …" ("Okay, I won't
change anything"), "bump the groceries to high and push it to monday" (asked which visit),
"make it um four fifteen the haircut i mean same day" (not understood), "book a massage on
wednesday at 3 unless I already have something that day" (asked without reading the
visits). Read wrongly: "show me my last 2 visits" (those coming up), "what's the total of
everything I've paid so far" (the open bill). Not scored, but wrong: "anything on my bill
over $100?" said "I don't see an invoice for $100.00" beside the $150 one.
Then 75/77 after (assistant/language, assistant/models/embedded; tests/language/
test_heldout15_rules.py): "sat", "sun", "wed", "tue", "thu" are days after "on/for/by/this/
next/…" or before an hour; "not the X, the other one" is any but X; "I/we might/may (well)
<change>" weighs it; "retitle X as Y" is titled Y, "give it a note saying …" its note; "pop/
shove/kick X down/up to <level>"; "I'd be (ever so) grateful if you'd…", "I'd appreciate it
if you would…" ask it; "all … are done except X"; a new email or number after a clause that
names only the other detail is changed; "X needs to go / needs moving / has to be moved to
<when>" (and "it's X that needs…") moves X; "I never asked for X, get rid of it" cancels X
(held); "…and push it to <day>" after a to-do changed is that to-do's due day; "cancel my
friday appointment but only if it's the haircut" is "cancel my friday haircut"; "unless I
already have something" reads the visits; "whichever is earlier/later, <day> or <day>" is
that day; "my next two appointments" each, held for one yes; "my last 2 visits" the history;
"everything I've paid" the paid invoices; bills over or under an amount are said; a change
of a to-do on a condition of its due day or level reads the to-dos with the question. No
decision changed on the phrasings bench.decisions knows.
Nine more written after those fixes, not tuned on (the last nine lines, "block": 2): first
run 7/9, no wrong write. Missed: "the haircut on friday no the cleaning needs pushing back an
hour" (read the haircut; "needs pushing back" was no move), "cancel whichever of my
appointments is sooner" (asked which). Then 8/9: "X needs pushing back / bringing forward
<how much>" moves it by that, "whichever (of my) appointment(s) is sooner/first" is the
earliest. Still missed: the first, now asked ("I don't see a dental cleaning on Friday": the
day said of the haircut is kept for the cleaning put in its place; nothing is written).

tests/data/heldout16.jsonl: 71 single messages written before the rule code was read, aimed
at what earlier sets covered least: requests of two or three parts where one is a write and
another a read or a limit ("cancel my haircut and tell me if I still owe anything", "mark
groceries done, what's left?", "change my email to … and open a case about the double
charge"), joined by "then", "after that", "also", "oh and", "plus", "as well as" or said as
a list ("1. … 2. …"); parts that depend on each other ("if I owe more than 100 open a case
about the bill", "if I have nothing on wednesday, book a massage then at 10, otherwise
thursday"); times counted from other items ("an hour after my cleaning ends", "the morning
before my haircut", "the evening before my cleaning at 6"); and parts refused ("don't bother
with the bill, just move the cleaning to 11", "no ticket please, I only want to know how
much I owe", "don't mark the groceries done yet, just move it to monday").
First run 54/71 (58/71 with four checks corrected: two parts done in another order, the
visits listed twice before a move counted from another, and "the morning before my haircut"
the day before, as the house reads "the night/evening before"). WRONG WRITES (5): "if I have
nothing on wednesday, book a massage then at 10, otherwise thursday" booked THURSDAY without
a look; "move the haircut to an hour after my cleaning ends" moved it to Monday at 2:30 (its
own hour); "add two tasks - call the plumber friday, and renew passport, high priority" added
the passport at normal priority; "put a to-do to buy shampoo on the morning before my
haircut" titled it "Buy shampoo of"; "cancel my haircut, actually don't, just tell me what
time it is" held the cancel the customer took back. Held back or asked where a part was
asked: "if I owe more than 100 (200) open a case about the bill" (no look at the bill: "I
don't have details like fees"), "book a massage an hour after my cleaning ends" (asked),
"don't mark the groceries done yet, just move it to monday" ("Okay, I won't change
anything"), "book a facial the evening before my cleaning at 6" (asked the half of the day),
"no ticket please, …" (read the cases too), "book a haircut two hours before my cleaning"
and "cancel the cleaning if it's before the haircut" (asked).
Then 69/71 (assistant/language, assistant/models/embedded; tests/language/
test_heldout16_rules.py): an hour "after my X ends / finishes / is over" (or half an hour) is
counted from its end, and a move counted from a visit without "ends" or "starts" is asked
with the hour from its end (it kept the thing's own hour); words joined to an ask held on a
condition keep it held; "if <condition on a day>, … then at <hour>" is that day, and
"otherwise <day>" no day of the ask; an item of a list of to-dos that only says a level or a
due day goes with the item before; "the morning of <day>" is cut whole from a title; a bare
"don't" after "actually / no / wait" takes back the ask before, the ask after it stands;
"don't <change> X (yet), just <change> it…" is that change of X; a change on a condition of
what is owed reads the bill with the question; "no ticket/reminder please" asks for none; a
bare hour "the evening/night before" a visit is after noon; "1. … 2. …" is each ask; "scratch
the <visit>" is a cancel (held). No decision changed on the phrasings bench.decisions knows.
Ten more written after those fixes, not tuned on (the last ten lines, "block": 2): first run
7/10, no wrong write. Missed: "scratch the cleaning, oh and how much do I owe?" (listed the
visits, no cancel), "don't tick off the insurance yet, just bump it to low" (asked which task:
"tick insurance yet"), "book a massage half an hour after my haircut finishes" (asked to mark
a task done). Then 10/10 ("tick off", "half an hour", "finished" read as above).
Still missed (pinned): "book a haircut two hours before my cleaning" (asked what time before
10 AM: the house asks an hour before a visit, the new one's length not known), "cancel the
cleaning if it's before the haircut" (asked, the visits read: the house asks a change on a
condition).
tests/data/heldout17.jsonl: 71 single messages written before the rule code was read, aimed
at what earlier sets covered least: contact details said every way ("(415) 555-0123 ext 4",
"maria dot garcia at gmail dot com", "the number ending in 0101 is old", "use my work email
instead", "add a second number", digits in words with "oh", "x 22", "….co not .com"); to-do
titles that look like commands or dates ("remind me to cancel my gym membership", "add a
task: move the couch on friday", "add 'book flights' to my list", "note to self call mom at
5", "Q2 taxes: gather receipts", "the 2024 tax return"); one word for two things ("pick up
dry cleaning" beside the dental cleaning, "Bill's birthday" beside the bill, "the call about
my invoice", "delete the haircut", "cancel my gym membership"); hedges and hypotheticals
that must not write ("what would happen if I cancelled", "I'm thinking about moving my
haircut", "maybe I should…", "do you think I should…", "can I cancel online?"); amounts and
payments ("pay my bill", "I paid already", "put $50 toward it", "why is it 150", "refund my
$45 haircut", "set up autopay").
First run 62/71 (63/71 with one check corrected to the house's rule). WRONG WRITES (2):
"maybe I should mark the groceries done" marked it done; "do you think I should delete the
insurance task" held its delete for a yes. "add a second number, 650 555 0177" was checked
as changing nothing, but the house asks it (tests/e2e/test_contact_said.py): the engine asks
a yes "to change your phone number to 650-555-0177, in place of the one on file" (this world
writes a contact change outright), so the check now takes that question or nothing. Held
back where a write was asked: "I need to pick up dry cleaning on tuesday, put it on my list"
(offered, not added), "delete the haircut" (looked for a to-do "haircut"), "I'll pay the
bill friday, remind me" (refused as a payment). Read wrongly: "how would I update my phone
number if I get a new one" (read out the visits), "how's the call about my invoice going"
(the bill, not the cases), "I paid already" (asked which to-do "pay already" was). One check
was widened after the first run (missed either way): "delete the haircut" may read the
to-dos before the visits.
Then 71/71 (assistant/language, assistant/models/embedded; tests/language/
test_heldout17_rules.py): "maybe / perhaps / do you think / do you reckon / I wonder if I
should <change>" is advice asked, no change; "how would I update / edit / remove…" is the
way asked, and told for a detail as "tell me the new number or email"; an errand told with
its day then "put it / add it on my list" is added (it was offered), and a plan told with
its day ("I'll / I'm going to …") then "remind me" is a to-do (not with "it" or with no
day); "how's / any news on the call / request / question about <the bill>" reads the cases;
a to-do deleted by the name of a service, no to-do named so, is the visit's cancel (held,
the visits read); "I paid already / yesterday" reads the bill; "put / apply $N toward it" is
said not taken (the balance was read out, silent on it). Not scored, but said better: "the
number ending in 0101 is old" asks the new number (was "missing some digits"); a what-if
with no fee asked no longer says "I don't have details like fees"; "…cancel the haircut but
never mind" no longer says "your haircut but". No decision changed on the phrasings
bench.decisions knows.
Eight more written after those fixes, not tuned on (the last eight lines, "block": 2): first
run 6/8. WRONG WRITE (1): "perhaps we ought to push the haircut to saturday" moved the
haircut (the advice rule knew "move" but not "push"). Missed: "I've got to drop off the dry
cleaning on thursday, stick it on my to-do list" added it, but read "drop off" as a delete
too and said "I couldn't find a task matching 'dry cleaning thursday'". Then 8/8: advice
asked of any verb of change ("push", "bump", "shift", "drop", "make", "set"…) changes
nothing; "drop off / by / in" is an errand, never a delete. No decision changed on any
earlier set.
tests/data/heldout18.jsonl: 71 single messages written before the rule code was read, aimed
at what earlier sets covered least: dates said every way ("the 3rd", "the twenty-second", "a
week from friday", "next next tuesday", "end of the month", "first thing monday", "the day
before my haircut", "in a fortnight", "3/22", "22/3", "1/4", "march twenty second", "this
coming weekend", "friday the 13th" when the 13th is a Thursday, "feb 30th", "yesterday");
times ("half past two", "quarter to five", "noon-ish", "after 3", "between 2 and 4",
"17:30", "5.30", "at 5 in the morning", "first slot", "as late as possible", "twenty past
ten"); negation and exclusion in one request ("don't cancel the haircut, cancel the
cleaning", "…but skip the billing", "cancel my appointment, not the dental one", "move the
groceries to friday, no, not groceries, the insurance one"); several asks with one of them
impossible ("cancel my yoga and show my bill", "mark the dog walking task done and the
insurance one too"); bulk changes ("cancel all my appointments", "clear my list", "mark
everything done", "delete the last three tasks").
First run 56/71 (59/71 with three checks corrected to the house's rule: "cancel all my
appointments" holds both cancels for one yes that names them, and "mark everything done" /
"set all my tasks to high priority" are done outright, as tests/data/conversations_*.jsonl
hold; "clear my list" was then checked as "delete all my tasks" is, held for one yes).
WRONG WRITES (5): "book a haircut next next tuesday at 3" booked next Tuesday (the repeat
was taken for a stutter); "remind me the day after tomorrow to pick up my prescription" was
due tomorrow ("the day after" read as a day counted from something, then "tomorrow");
"change the insurance due date to 1/4" made it due January 4 next year (April 1 is weeks
away); "can you move my cleaning to sometime between 2 and 4 on tuesday" moved it to
Tuesday at 10, its own hour; "cancel my appointment, not the dental one" held the DENTAL
cleaning's cancel for a yes. Missed: "…, but skip the billing" read the bill too; "don't mark
groceries done yet, just move it to monday" did nothing; "…no, not groceries, the insurance
one" and "move the insurance one to friday" were not understood; "cancel my yoga and show my
bill" said "I couldn't find an appointment like that"; "mark the dog walking task done and
the insurance one too" was silent on the dog walking; "clear my list" was refused as a
payment; "what's my balance and when is my yoga class" dropped the second question. Two
checks were widened after the first run (missed either way): "move the groceries…" with no
kind said reads the visits too, as the house does.
Then 70/71 (tests/language/test_heldout18_rules.py): "next next <weekday>" is the one after
next (a "next, next" with a pause stays one); "the day after tomorrow" said first is that
day; a slash date whose month-first reading rolls over a year while the day-first one is
weeks ahead asks which ("Do you mean Sunday, January 4, 2026 or Tuesday, April 1?");
"between 2 and 4" (hours) or "between the 10th and the 12th" (days) is a span, asked (not one
end booked, nor two bookings); ", not the X" and "the one that isn't the X" leave X out;
"skip / leave out / except / without <kind>" leaves that read out ("everything except
billing" reads the rest); "don't <do> X (done) (yet), just <other> it" does the other; "move
the <name> one to <day>" is read as a move; a visit asked about by a name no service holds
is said back ("I don't see a yoga appointment on your account"); a to-do not found beside
another of the same change is said; "clear / wipe / empty my (to-do) list" is "delete all my
tasks" (held for one yes naming them). Still missed (pinned, writes nothing): "what's my
balance and when is my yoga class" (the balance is read, the yoga class not said of).
Eight more written after those fixes, not tuned on (the last eight lines, "block": 2): first
run 6/8 (7/8 with one check widened: "reschedule my pilates to tuesday and tell me when my
haircut is" reads the to-dos too, as a move of a name no service holds does; it said "I
don't see a pilates appointment"). WRONG WRITE (1): "book a massage saturday between 10 and
noon" booked it at noon (the span's end: "noon" was no hour a span was read with). Then
8/8: a span of hours may start or end at noon or midday. No decision changed on any earlier
set.
tests/data/heldout19.jsonl: 70 single messages written before the rule code was read, every
change asked in other words, as customers say them: moves ("bump my haircut to 4", "slide
the cleaning to thursday", "nudge my haircut an hour later", "swap my haircut to thursday",
"shunt", "roll … over to", "flip … to", "make my haircut 5 o'clock"), bookings ("slot me
in", "squeeze me in", "put me down for", "sign me up for", "reserve", "pencil me in", "grab
a slot"), cancels and deletes ("knock … off my list", "scratch", "bin", "kill", "axe",
"ditch", "I won't make it to the cleaning, take it off", "I can't do the cleaning anymore,
drop it"), completions ("the groceries are sorted", "tick the insurance one", "taken care
of"), to-dos ("jot down …", "make a note to …", "stick/pop/throw … on my list"), task
changes ("bump the groceries to monday", "dial … down to low"), contact details ("my digits
changed to …", "reach me at … from now on", "you can get me on …"), and eleven hedges that
must write nothing ("I could probably bump…", "thinking about squeezing in…").
First run 45/70. WRONG WRITES (5): "I could probably bump the haircut to 4" MOVED it;
"thinking about squeezing in a facial friday at 11" BOOKED it; "would it be smarter to
shift the cleaning back half an hour?" MOVED it; "the groceries are almost sorted"
COMPLETED the groceries; "maybe jot down call the plumber, or maybe not, I'll think about
it" ADDED a to-do titled "Call the plumber, or maybe not, I'll think about it". Held back
where a change was asked (only listed, or not understood): "nudge my haircut an hour later",
"swap my haircut to thursday", "shunt the cleaning to wednesday at 9", "flip my cleaning to
the afternoon, say 3", "roll the haircut over to the same time next week", "make my haircut
5 o'clock", "knock the insurance task off my list", "kill my haircut appointment", "tick the
insurance one", "the car insurance is taken care of", "stick 'water plants' on my list",
"pop renew passport on my to-dos", "throw pick up dry cleaning on the list for friday",
"slide the insurance task to the 15th", "dial the insurance task down to low", "you can get
me on 650 555 0123 going forward" (asked what to book: "get me" books). Right cancel held,
poor turn: "axe the haircut" and "…, drop it" read the to-dos too and said "I couldn't find
a task matching 'haircut'"; "…, take it off" read the to-dos too. "nudge my massage an hour
later" (no massage booked) listed the visits without a word on the massage.
Then 70/70 (assistant/language/said_plainly.py `change_said_plainly`, scope.py, task_rules.py,
intents.py; tests/language/test_heldout19_rules.py): a move said as "nudge", "shunt",
"slide", "scoot", "budge", "roll (over)" of a visit or to-do named, "swap/flip <it> to",
"make <visit> <hour>"; a cancel said as "kill", "axe", "nix" of one named, "knock <it> off
(my list)", "<a visit named>, drop it / take it off" (with no to-do named); "stick / pop /
throw / chuck … on my list"; "dial <it> up/down to <level>"; "get me on/at <number or
email>" are each said plainly ("move", "cancel", "put", "set", "reach me at") before any
rule reads the change, so the guards that read a change (not to be done, advice, weighed)
read these too; "tick the X" completes; "<to-do> is taken care of / dealt with" is done,
"almost / nearly / not quite / isn't … done" is not; "I could/can probably (maybe,
possibly) <change>" is weighed; "thinking about/of <…ing>" said without "I'm" leans to it
(asked); "would it be smarter/better/wiser to …" asks advice; a closing "or maybe not",
"I'll think about it", "(eh,) probably not" takes the ask back (asked); "not sure if I
should <change>" is no ask after the modal (held the cancel for a yes before: a wrong
write found by the set's "kill" once read as "cancel"). No decision changed on any earlier
set (bench.decisions and every tests/data request played alone).
Eight more written after those fixes, not tuned on (the last eight lines, "block": 2): first
run 6/8. WRONG WRITE (1): "could I maybe shunt the haircut to saturday? eh, probably not"
moved the haircut. Missed: "can you bump the groceries back a day" (not understood: "bump"
with a shift by days was read only after "put" or "move"). Then 8/8: "(eh,) probably not"
after a question takes it back; "bump / shift / nudge / slide <to-do> back a day" shifts it
as "push" does. No decision changed on any earlier set.
tests/data/heldout20.jsonl: 75 single messages written before the rule code was read, as a
phone line's speech recognition hands them (Twilio, Vapi, Retell): no punctuation, lower
case, numbers spelt out ("three thirty p m", "a quarter to four", "the twenty second", "two
thousand twenty six"), phone numbers read digit by digit ("oh", "double five", "triple
five"), emails spelt ("j doe at example dot com", "maria underscore garcia at outlook dot
com"), fillers and restarts ("uh can you um cancel cancel my haircut"), self-repairs in one
breath ("…thursday no sorry friday at ten", "…nine no ten", "…three i mean four"), homophones
("at for p m", "too p m", "to thirty", "write now", "hi priority"), words split ("hair cut",
"check up", "to do list"), a request then a lookup with no "and" ("cancel my haircut whats
my balance"), a closing "thank you bye", and fifteen that must write nothing ("for two
people", "four five six main street", "for two hours", a number too short, "i dunno",
"we'll see", "what if…", "never mind").
First run 67/75. WRONG WRITES (3): "reschedule my haircut to the tenth um the eleventh at
two" MOVED the haircut to its own day at 2 (neither day read); "change my email to maria at
gmail dot com no sorry maria g at gmail dot com" WROTE g@gmail.com (the initial taken for
the whole name); "probably gonna have to cancel the haircut we'll see" HELD THE CANCEL for a
yes. Held back where a change was asked: "move the haircut to for fifteen" and "i need the
cleaning moved to thursday at ten uh scratch that wednesday at ten" asked when; "cancel my
haircut whats my balance" was refused as an invoice's cancel; "cross off the groceries i got
them this morning" found no task "groceries got them morning". Read missed: "do i have
anything at four o'clock on friday" (refused).
Then 75/75 (assistant/language/transcript.py, spoken.py, said_numbers.py, scope.py,
lookups.py, models/embedded/limits.py; tests/language/test_heldout20_rules.py): a day, a
filler and another day with nothing joining them ("the tenth um the eleventh", "thursday uh
friday") is a day put right, read as "… no …"; two dates back to back ("the 10th the 11th")
the same; "the tenth i mean / sorry / actually the eleventh" is written in digits on both
sides, so the repair reads them (probing found these moved the haircut to its own day or to
the 10th: wrong writes too); an hour word before "scratch that", "i mean", "oops", "hang
on", "or rather" is an hour, so its repair is read; "to for fifteen/thirty/forty five" is
four; an initial said after a name in an address ("maria g at …") is its last letter (not
after a word of the sentence: "to g at …"); "probably (going to) have/need to <change>" and
a closing "we'll see" / "i dunno" weigh the change (not after "and": "…and we'll see" is
asked); a cancel's words no longer reach across a question begun after it to "balance";
"<tick/mark/cross off> X i got/bought/renewed/… …" tells why after a pause; "do i have
anything at/around <hour>" reads the visits. No decision changed on any earlier set.
Eight more written after those fixes, not tuned on (the last eight lines, "block": 2): first
run 8/8.

tests/data/heldout21.jsonl: 60 single messages written before the rule code was read, as
people type and say them who are not the phrasings' usual writers: English as a second
language ("i want cancel the haircut please", "how much i must pay?", "remember me to call
my sister tomorrow", "thursday 3 of afternoon"), a chat's shorthand ("bal?", "cxl haircut",
"mv cleaning to wed 2pm", "haircut -> 4pm same day", "book haircut tues 10a", "cxl? no wait
nvm"), emoji ("groceries done ✔", "✅ car insurance renewed"), long polite asks and
rambles with one request in them, eight that must write nothing, and several asks at once.
First run 52/60. WRONG WRITE (1): "haircut -> 4pm same day" BOOKED A HAIRCUT TODAY at 4 (a
bare "same day" was read as no day, so today; the visit named with no verb as a booking).
Not understood, nothing written: "bal?", "nvm", "10a", "3 of afternoon", "remember me to",
"groceries done ✔" (the mark read as a yes with nothing waiting), "✅ car insurance
renewed". Then 60/60 (one check corrected: "resched cleaning 2 next wk same time" is the
idiom "same time next week", the cleaning a week on, once "resched" and "wk" are read):
"same day" said bare points back like "the same day" (language/dates.py); a visit, an hour
and "same day" with no verb is a move of that visit (models/embedded/references.py); a
check mark beside a sentence marks it and is no yes (language/text.py); "10a", "7:30p",
"3 of the afternoon", "remember me to" (text.py); "nvm", "bal", "cxl", "resched", "wk"
(spelling.py); a to-do said done as a note, "car insurance renewed", "renewed the car
insurance" (language/task_rules.py). No decision of the dump changed. Eight more written
after those fixes, not tuned on (the last eight lines, "block": 2): first run 8/8.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from assistant.fakes.world import play
from assistant.schema import ToolCall

DATA = Path(__file__).parents[1] / "data"
PHRASINGS = DATA / "phrasings.jsonl"
HELDOUT = DATA / "heldout.jsonl"
HELDOUT3 = DATA / "heldout3.jsonl"
HELDOUT4 = DATA / "heldout4.jsonl"
HELDOUT5 = DATA / "heldout5.jsonl"
HELDOUT6 = DATA / "heldout6.jsonl"
HELDOUT7 = DATA / "heldout7.jsonl"
HELDOUT8 = DATA / "heldout8.jsonl"
HELDOUT9 = DATA / "heldout9.jsonl"
HELDOUT10 = DATA / "heldout10.jsonl"
HELDOUT11 = DATA / "heldout11.jsonl"
HELDOUT12 = DATA / "heldout12.jsonl"
HELDOUT13 = DATA / "heldout13.jsonl"
HELDOUT14 = DATA / "heldout14.jsonl"
HELDOUT15 = DATA / "heldout15.jsonl"
HELDOUT16 = DATA / "heldout16.jsonl"
HELDOUT17 = DATA / "heldout17.jsonl"
HELDOUT18 = DATA / "heldout18.jsonl"
HELDOUT19 = DATA / "heldout19.jsonl"
HELDOUT20 = DATA / "heldout20.jsonl"
HELDOUT21 = DATA / "heldout21.jsonl"
# Pinned at the last measured scores (389/389 and 398/398): any regression fails the build.
REQUIRED_SHARE = 1.0
REQUIRED_HELDOUT_SHARE = 1.0
# heldout3: first run 91/120 before any rule change; pinned at the last measured 118/120.
REQUIRED_HELDOUT3_SHARE = 118 / 120
# heldout4: first run 26/62 before any rule change; pinned at the last measured score.
REQUIRED_HELDOUT4_SHARE = 62 / 62
# heldout5: first run 43/55 before any rule change; pinned at the last measured score.
REQUIRED_HELDOUT5_SHARE = 55 / 55
# heldout6: first run 43/50 before any rule change (then 8/15 more); pinned at 60/65.
REQUIRED_HELDOUT6_SHARE = 60 / 65
# heldout7: first run 55/72 (56/72 with four checks corrected), then 11/15 more; pinned at
# the last measured score.
REQUIRED_HELDOUT7_SHARE = 86 / 87
# heldout8: first run 53/75 (54/75 with one check corrected), then 11/15 more; pinned at the
# last measured score.
REQUIRED_HELDOUT8_SHARE = 90 / 90
# heldout9: first run 40/56 (43/56 with three checks corrected), then 13/15 more; pinned at
# the last measured score.
REQUIRED_HELDOUT9_SHARE = 67 / 71
# heldout10: first run 37/61 before any rule change, then 9/12 more; pinned at the last
# measured score.
REQUIRED_HELDOUT10_SHARE = 71 / 73
# heldout11: first run 52/60 before any rule change, then 8/12 more; pinned at the last
# measured score.
REQUIRED_HELDOUT11_SHARE = 72 / 72
# heldout12: first run 38/56 before any rule change (two checks corrected as unfair), then
# 10/12 more; pinned at the last measured score.
REQUIRED_HELDOUT12_SHARE = 63 / 68
# heldout13: first run 34/61 before any rule change, then 9/12 more; pinned at the last
# measured score.
REQUIRED_HELDOUT13_SHARE = 73 / 73
# heldout14: first run 64/72 before any rule change (one check corrected to the house's rule),
# then 11/11 more; pinned at the last measured score.
REQUIRED_HELDOUT14_SHARE = 83 / 83
# heldout15: first run 55/77 before any rule change (two checks corrected to the house's
# rule), then 7/9 more; pinned at the last measured score.
REQUIRED_HELDOUT15_SHARE = 83 / 86
# heldout16: first run 54/71 before any rule change (58/71 with four checks corrected), then
# 7/10 more; pinned at the last measured score.
REQUIRED_HELDOUT16_SHARE = 79 / 81
# heldout17: first run 62/71 before any rule change (one check corrected, one widened), then
# 6/8 more; pinned at the last measured score.
REQUIRED_HELDOUT17_SHARE = 79 / 79
# heldout18: first run 56/71 before any rule change (59/71 with three checks corrected, two
# widened), then 6/8 more (one check widened); pinned at the last measured score.
REQUIRED_HELDOUT18_SHARE = 78 / 79
# heldout19: first run 45/70 before any rule change (five wrong writes), then 6/8 more (one
# wrong write); pinned at the last measured score.
REQUIRED_HELDOUT19_SHARE = 78 / 78
# heldout20: first run 67/75 before any rule change (three wrong writes), then 8/8 more;
# pinned at the last measured score.
REQUIRED_HELDOUT20_SHARE = 83 / 83
# heldout21: first run 52/60 before any rule change (one wrong write); pinned at the last
# measured score.
REQUIRED_HELDOUT21_SHARE = 68 / 68


def value_right(key: str, want: str, got: Any) -> bool:
    """`got` is the value `want` names: a start time the same instant, a text the same
    words (a key ending in "~": containing them)."""
    if not isinstance(got, str):
        return False
    if key == "starts_at":
        try:
            return datetime.fromisoformat(got) == datetime.fromisoformat(want)
        except ValueError:
            return False
    if key.endswith("~"):
        return want.lower() in got.lower()
    return got.lower() == want.lower()


def values_right(line: dict[str, Any], calls: list[ToolCall]) -> bool:
    """Every call of a tool named in the line's `args` carries the values given there (a
    wrong date, task or address is a wrong write even when the tools are right)."""
    for tool, wanted in line.get("args", {}).items():
        for call in (call for call in calls if call.tool_name == tool):
            for key, want in wanted.items():
                if not value_right(key, want, call.arguments.get(key.rstrip("~"))):
                    return False
    return True


def call_matches(wanted: dict[str, str], call: ToolCall) -> bool:
    """`call` carries every value in `wanted` ("*": the key given at all)."""
    return all(
        call.arguments.get(key.rstrip("~")) is not None
        if want == "*"
        else value_right(key, want, call.arguments.get(key.rstrip("~")))
        for key, want in wanted.items()
    )


def some_and_none_right(line: dict[str, Any], calls: list[ToolCall]) -> bool:
    """Each of a tool's `some` values is carried by one of its calls (several calls of a
    tool, each its own item), and none of its calls carries all of a `none` entry (the
    item said to be left alone, the detail said to stay)."""
    for tool, entries in line.get("some", {}).items():
        of_tool = [call for call in calls if call.tool_name == tool]
        if not all(any(call_matches(e, call) for call in of_tool) for e in entries):
            return False
    for tool, entries in line.get("none", {}).items():
        of_tool = [call for call in calls if call.tool_name == tool]
        if any(call_matches(e, call) for e in entries for call in of_tool):
            return False
    return True


async def understood(line: dict[str, Any]) -> bool:
    turn = await play(line["text"])
    tools_right = turn.tools == line["tools"] or turn.tools in line.get("alt_tools", [])
    held = turn.held.tool_name if turn.held else None
    calls = [call for calls in turn.rounds for call in calls]
    calls += [turn.held] if turn.held else []
    spoken = turn.final or turn.answer  # as the engine would speak it
    said = "says" not in line or line["says"].lower() in spoken.lower()
    values = values_right(line, calls) and some_and_none_right(line, calls)
    return tools_right and held == line.get("confirm") and values and said


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


async def report(path: Path, capsys: Any) -> tuple[float, list[str]]:
    """The share of `path` understood, printed with what was missed."""
    lines = read_lines(path)
    missed = [line["text"] for line in lines if not await understood(line)]
    share = (len(lines) - len(missed)) / len(lines)  # exact against an n / m pin
    with capsys.disabled():
        print(f"\n{path.stem} understood: {len(lines) - len(missed)}/{len(lines)} = {share:.1%}")
        for text in missed:
            print(f"  not understood: {text}")
    return share, missed


# Each set, its pinned share, and the fewest requests it may have (a set cut short by
# accident must not pass by scoring fewer lines).
SCORED_SETS = [
    (PHRASINGS, REQUIRED_SHARE, 80),
    (HELDOUT, REQUIRED_HELDOUT_SHARE, 150),
    (HELDOUT3, REQUIRED_HELDOUT3_SHARE, 120),
    (HELDOUT4, REQUIRED_HELDOUT4_SHARE, 60),
    (HELDOUT5, REQUIRED_HELDOUT5_SHARE, 50),
    (HELDOUT6, REQUIRED_HELDOUT6_SHARE, 65),
    (HELDOUT7, REQUIRED_HELDOUT7_SHARE, 87),
    (HELDOUT8, REQUIRED_HELDOUT8_SHARE, 90),
    (HELDOUT9, REQUIRED_HELDOUT9_SHARE, 71),
    (HELDOUT10, REQUIRED_HELDOUT10_SHARE, 73),
    (HELDOUT11, REQUIRED_HELDOUT11_SHARE, 72),
    (HELDOUT12, REQUIRED_HELDOUT12_SHARE, 68),
    (HELDOUT13, REQUIRED_HELDOUT13_SHARE, 73),
    (HELDOUT14, REQUIRED_HELDOUT14_SHARE, 83),
    (HELDOUT15, REQUIRED_HELDOUT15_SHARE, 86),
    (HELDOUT16, REQUIRED_HELDOUT16_SHARE, 81),
    (HELDOUT17, REQUIRED_HELDOUT17_SHARE, 79),
    (HELDOUT18, REQUIRED_HELDOUT18_SHARE, 79),
    (HELDOUT19, REQUIRED_HELDOUT19_SHARE, 78),
    (HELDOUT20, REQUIRED_HELDOUT20_SHARE, 83),
    (HELDOUT21, REQUIRED_HELDOUT21_SHARE, 68),
]


# The lines of a set still missed at its pin: any other line missed fails the build, though
# the share held (a line put right may not pay for one broken).
STILL_MISSED = {
    HELDOUT18: {
        # known-open, writes nothing wrong: the balance is read out, and the yoga class (a
        # name no service holds, asked "when is my …") is not said of
        "what's my balance and when is my yoga class",
    },
    HELDOUT7: {"the eye exam one can be pushed back to the 15th"},
    HELDOUT9: {
        "push the barber to 4 same day",
        "reschedule the groceries appointment to monday",
        "complete my haircut appointment",
        "book my groceries for wednesday",
    },
    HELDOUT10: {
        "no need to keep the groceries on there, I did the shopping this morning",
        "I called last week about the invoice and someone said they'd look into it, and then"
        " nothing, no email, no call, and I'm starting to get annoyed. Has anyone actually"
        " replied to that?",
    },
    HELDOUT15: {
        # asked: "I didn't catch what you meant by 'make it 4:15 the same day'"
        "make it um four fifteen the haircut i mean same day",
        # asked, with the to-dos read (a condition of a to-do's state, as the house asks)
        "if the eye exam task has no due date, set it for the 10th",
        # asked: "I don't see a dental cleaning on Friday" (the day kept from the haircut)
        "the haircut on friday no the cleaning needs pushing back an hour",
    },
    HELDOUT16: {
        # asked "What time before 10 AM on Monday works for your haircut?" (an hour before a
        # visit is asked: when the new one would end is not known)
        "book a haircut two hours before my cleaning",
        # asked, with the visits read (a change on a condition is asked, as the house does)
        "cancel the cleaning if it's before the haircut",
    },
    HELDOUT12: {
        "when is the one after my cleaning",
        "what's my next appointment after monday's",
        "which of my cancelled appointments was at the main office",
        "mark the last two tasks on my list done",
        "i paid 45 dollars a while back, which invoice was that for",
    },
}


@pytest.mark.parametrize(
    ("path", "required", "least"), SCORED_SETS, ids=[path.stem for path, _, _ in SCORED_SETS]
)
async def test_the_planner_understands_each_scored_set(
    capsys: Any, path: Path, required: float, least: int
) -> None:
    """In at least each set's pinned share, a request makes exactly the calls it asks for
    (share reported)."""
    assert len(read_lines(path)) >= least
    share, missed = await report(path, capsys)
    assert share >= required, missed
    if path in STILL_MISSED:
        assert set(missed) <= STILL_MISSED[path], missed
