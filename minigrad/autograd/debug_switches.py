"""The switches of minigrad's opt-in debugging aids, each read on the hot path as one attribute.

Write tracking (``set_track_writes``, and anomaly mode) and the saved-tensor guard
(``guard_saved_tensors``) hook into four choke points of the core: the version counter's bump,
the packing of saved values, their unpacking and their release. Each hook is one ``if`` on a flag
of this object, so a process that never turns a debugging aid on pays one attribute read per
choke point. The flags that the hooks read are derived here, in one place.
"""

from __future__ import annotations


class _Switches:
    # What the user turned on.
    track_writes = False  # set_track_writes(True)
    anomaly = False  # anomaly mode, which tracks writes as well
    guard = False  # guard_saved_tensors(): protect buffers saved from now on
    # What the hooks read (derived by ``refresh``).
    writes = False  # VersionCounter.bump remembers where each in-place write happened
    saves = False  # packing saved values remembers where, and/or guards the buffers
    guarded = False  # some buffer is guarded now: check unpacks and releases
    guard_used = False  # the guard was on once: check counted writes (views may be read-only)


switches = _Switches()


def refresh(guarded_buffers: int | None = None) -> None:
    """Derive the flags the hooks read from the user's switches (and the guard's buffer count)."""
    switches.writes = switches.track_writes or switches.anomaly
    switches.saves = switches.writes or switches.guard
    if guarded_buffers is not None:
        switches.guarded = guarded_buffers > 0
