"""What an officer of the local authority is told: up to the sale, during and after it,
money held after a sale or a deposit, and the reminders of the Act's deadlines."""
