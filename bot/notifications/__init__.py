"""What poundbot sends beside the answer to the one who wrote: the notifications of a
step to the owner and the officers (``notify``), the messages about a case checked
against the case when they are sent (``case_messages``) and the ceiling of answers to
numbers that are not staff (``spending``). They render their texts (``bot.i18n``) over
what the use cases (``bot.services``) return, and the send gate runs the last two."""
