"""The switches of minigrad's opt-in debugging aids, each read on the hot path as one attribute.

Write tracking (``set_track_writes``, and anomaly mode) and the saved-tensor guard
(``guard_saved_tensors``) hook into four choke points of the core: the version counter's bump,
the packing of saved values, their unpacking and their release. Each hook is one ``if`` on a flag
of this object, so a process that never turns a debugging aid on pays one attribute read per
choke point. The flags that the hooks read are derived here, in one place.

``modes_on`` gathers them for the recording functions (``autograd/record.py``), with the
other modes that change what a recorded op does: one test per op says that none is on.
"""

from __future__ import annotations


class _Switches:
    """The flags, as attributes of the one instance ``switches``."""

    def __init__(self) -> None:
        # Set on the instance, not as class defaults: CPython 3.11 specialises the read of an
        # attribute the instance's dict holds, never of a class default read through an
        # instance (each such read takes the generic lookup, on every node backward runs).
        # What the user turned on.
        self.track_writes = False  # set_track_writes(True)
        self.anomaly = False  # anomaly mode, which tracks writes as well
        self.guard = False  # guard_saved_tensors(): protect buffers saved from now on
        # What the hooks read (derived by ``refresh``).
        self.writes = False  # VersionCounter.bump remembers where each in-place write happened
        self.saves = False  # packing saved values remembers where, and/or guards the buffers
        self.guarded = False  # some buffer is guarded now: check unpacks and releases
        # the guard was on once: check counted writes (views may be read-only)
        self.guard_used = False


switches = _Switches()


def refresh(guarded_buffers: int | None = None) -> None:
    """Derive the flags the hooks read from the user's switches (and the guard's buffer count)."""
    switches.writes = switches.track_writes or switches.anomaly
    switches.saves = switches.writes or switches.guard
    if guarded_buffers is not None:
        switches.guarded = guarded_buffers > 0
    if switches.saves:
        modes_on["debugging aid watching saves"] = True
    else:
        modes_on.pop("debugging aid watching saves", None)


# Why a recorded op cannot skip its mode tests now, one entry per reason (the values only
# say what the key is): a thread whose grad mode is off (``grad_mode.py``: its key, one per
# such thread), open saved-tensor hooks (``saved_hooks.py``), a debugging aid watching saving
# (anomaly mode, write tracking, the guard: ``switches.saves``, set by ``refresh``).
#
# The recording functions (``autograd/record.py``) test ``not modes_on`` first: empty, they
# record without reading the thread's grad mode (a ``threading.local`` attribute, 0.05 us
# against ~0.01 for this test), anomaly mode, the hooks or the switches. Not empty, they read
# each as before: it is a shortcut, never the only test. Grad mode is per thread (PyTorch's
# too), so one thread in ``no_grad`` turns the shortcut off for all; anomaly mode and the
# switches are process-wide, as in PyTorch. A dict, not a count or a derived flag: adding and
# removing a key are each atomic, so threads changing modes at once need no lock to keep it
# exact.
modes_on: dict[object, object] = {}
