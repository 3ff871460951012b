"""In-process fakes of the Telegram Bot API and the Twilio REST API on loopback, used by
the demo (``poundbot demo``) and the tests.

- ``loopback.serve``: any ASGI app under uvicorn on 127.0.0.1 at a free port;
- ``telegram_api``: a fake Bot API recording the calls of the real PTB bot, and the
  updates Telegram would post;
- ``twilio_api``: a fake Twilio REST API recording the messages the real SDK sends.

Nothing here reaches the internet.
"""
