"""What a pound-keeper is told: after each step, and about the photos they send."""
