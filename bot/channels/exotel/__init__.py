"""Exotel: SMS to the ExoPhone, its delivery reports and missed calls in; SMS out."""
