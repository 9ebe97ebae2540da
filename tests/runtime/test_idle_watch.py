"""The benchmark's unchanged-table watch: what it counts (issue 4, CPU of an unchanged table).

The figure is only meaningful if the loop reads the still table once and then only gates it:
a reading per frame would be a different loop. These tests hold the measurement to that, not
to any timing.
"""

from companion.bench.referee import idle_cpu


def test_unchanged_table_is_read_once_and_then_only_gated():
    figures = idle_cpu("gleebs-and-grues", 3.0)
    assert figures["frame"] == "1280x720"
    # 30 frames a second for three seconds, every one handed to the gate
    assert figures["frames"] == 90
    # the table is read once, when it first stands still, and never again while unchanged
    assert figures["readings"] == 1
    # both shares are process CPU over wall time, so positive; the steady one is measured
    # after that first reading
    assert figures["cpu_share_of_one_core"] > 0
    assert figures["cpu_share_after_first_reading"] is not None
    assert figures["cpu_share_after_first_reading"] > 0
    assert figures["gate_ms_median"] > 0
