"""SMS whichever provider carries it: the port every provider fills, the answer to an SMS,
the sweep of SMS left unanswered, missed calls, and the wiring of the provider in use."""
