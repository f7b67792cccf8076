"""``ginrummy.env``: gin rummy as a PettingZoo AEC environment (``ginrummy_v0``).

>>> from ginrummy.env import env
>>> e = env(profile="modern", episode="hand", info_text=True)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape, sorted(info)
((487,), (212,), ['text', 'view'])

The observation layout is in :mod:`ginrummy.env.observation`, the action numbering in
:mod:`ginrummy.env.actions`, and both, with rewards and opponents, in ``docs/env.md``. Needs the
``env`` extra (``pip install "ginrummy[env]"``: pettingzoo and gymnasium).
"""

from __future__ import annotations

from .actions import NUM_ACTIONS, action_mask, action_of, legal_actions, move_of
from .aec import AGENTS, env, raw_env
from .observation import OBS_SIZE, encode
from .policy import PolicyError, PolicyPlayer, load_policy
from .text import view_text

__all__ = [
    "AGENTS",
    "NUM_ACTIONS",
    "OBS_SIZE",
    "PolicyError",
    "PolicyPlayer",
    "action_mask",
    "action_of",
    "encode",
    "env",
    "legal_actions",
    "load_policy",
    "move_of",
    "raw_env",
    "view_text",
]
