"""Twilio: SMS and WhatsApp in (the signed webhook, delivery reports, pictures) and out."""
