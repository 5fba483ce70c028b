"""agon: rulesets, a referee, tournaments and rule lookups for ancient-Greek board games.

The installed package holds the source folders of the repository under one
import name: ``agon.cli``, ``agon.referee``, ``agon.bots``, and the data in
``agon.rulesets`` and ``agon.schemas``.
"""

__version__ = "0.2.0"
