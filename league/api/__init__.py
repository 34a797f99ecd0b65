"""The read API's schemas (``schemas``), and the webhooks' signing and delivery
(``webhooks``); the API's views are ``league.views.api``."""
