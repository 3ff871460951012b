"""Telegram: the webhook that takes updates (``webhook``), the turn of one update
(``turn``), the words and menus (``handlers``, ``menus``), the guided report of a
seizure (``seize``, ``seize_record``, ``seize_view``), photos (``photos``), the sender and
its outbox (``sender``, ``outbox``) and setting the webhook up (``connect``)."""
