"""Club night's server side (``tablekeeper club``, on the club's own machine): what arrived,
every table's game rebuilt through its engine, and the read-only standings page.
"""
