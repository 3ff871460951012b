"""The web desk: poundbot's pages for keepers, officers and admins, and the public
notice boards, served by the same Starlette app as the webhooks (``bot.web.app``)."""
