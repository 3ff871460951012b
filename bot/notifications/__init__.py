"""What poundbot sends beside the answer to the one who wrote: what the owner and the
officers are told of a step (``handlers``, over ``notify``, which queues a message to an
owner's number or to a keeper, officer or admin on their route), the messages about a
case checked against the case when they are sent (``case_messages``) and the ceiling of
answers to numbers that are not staff (``spending``). They render their texts
(``bot.i18n``) over what the use cases (``bot.services``) return; the composition root
registers the handlers, and the send gate runs the last two."""
