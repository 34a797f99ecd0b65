"""Pure logic of an event day, without Django (like ``scoring`` and
``league.seating``): ``roster`` reads a registration CSV, ``clock`` says what
the time limit and the ending policy mean for a table, ``results`` turns a
substituted seat into the registered player's result, ``countries`` lists the
ISO 3166 codes. The models and services in ``league`` build on them.
"""
