"""The broadcast's front end: spectators' pages and their server-sent events, fed by a feed of snapshots.

What a spectator may see is made once per change by the follower (projections.spectators) and put in a feed
(projections.feeds). A front end reads the feed once (:class:`broadcast.hub.Hub`) and sends each snapshot to the
spectators who follow it (:mod:`broadcast.app`: ``/feed``, the Live page and the overlay). It holds nothing a
restart would lose: ``rollcall broadcast --feed redis://…`` on as many machines as the viewers need, and the
dashboard's own routes (dashboard/broadcast_routes.py) over the data folder's feed on one machine.

Layers: ``broadcast`` imports ``projections`` and ``domain`` and is imported by ``dashboard`` and ``cli``.
"""
