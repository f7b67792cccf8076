"""A tiny PettingZoo-style policy for the web tests' agent seat: the first legal action of the
mask. The tests put this folder on the import path and name it ``agent_policy:first_legal``."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

#: Every observation the policy was called with (in process only): its seat's view, encoded.
SEEN: list[npt.NDArray[np.float32]] = []


def first_legal(observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
    SEEN.append(observation)
    return int(np.flatnonzero(action_mask)[0])


NOT_A_POLICY = 42


def failing(observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
    """A policy whose weights went missing: it raises at every move."""
    raise RuntimeError("weights file missing")


def illegal(observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
    """A policy that ignores the mask: the first action it does not allow."""
    return int(np.flatnonzero(action_mask == 0)[0])
