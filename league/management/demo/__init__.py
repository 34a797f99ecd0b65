"""The demo's data builders, used by ``demo_league``."""
