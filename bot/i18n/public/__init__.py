"""What the public and owners read: a search of open cases, what became of a case, the
dues and a deposit, the SMS to an owner, and the fitting of a reply to the SMS budget.

Two rules hold in this room: no person's name or number reaches the public
(``bot.support.public_text``), and an owner's SMS stays within its segments (``sms_fit``)."""
