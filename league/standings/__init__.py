"""Every read that ranks players or teams: one answer per question, used by
every page, printout, projector, CSV and file. ``league.standings.event``
holds the event's (stages, the cut, the final order, teams); a league's
table is ``Series.standings``, and ``series_standings`` picks the right one."""
