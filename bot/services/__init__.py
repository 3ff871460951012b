"""Use cases: what keepers, officers, owners and admins can do, over one transaction each."""
