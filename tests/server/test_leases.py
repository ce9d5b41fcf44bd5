"""The rule of the leases (laro.server.leases), with an injected clock: who renews, claims and lets go of what."""

from __future__ import annotations

from laro.server.leases import LEASE_SECONDS, Lease, beat_every, holds, plan_leases


def test_a_process_renews_its_own_leases_and_leaves_the_others_alone() -> None:
    leases = {"t1": Lease("t1", "a", 10.0), "t2": Lease("t2", "b", 10.0)}
    plan = plan_leases("a", ["t1", "t2"], leases, now=9.0)
    assert (plan.renew, plan.claim, plan.release) == (["t1"], [], [])


def test_a_dead_holders_lease_is_claimed_only_once_it_has_expired() -> None:
    leases = {"t1": Lease("t1", "dead", expires=10.0)}
    assert plan_leases("a", ["t1"], leases, now=9.999).claim == []
    assert plan_leases("a", ["t1"], leases, now=10.0).claim == ["t1"]
    assert not holds(leases["t1"], "dead", now=10.0)  # expired: its holder must not drive it any more


def test_a_table_without_a_lease_is_claimed_by_every_process_and_the_database_picks_one() -> None:
    plans = [plan_leases(me, ["t9"], {}, now=0.0) for me in ("a", "b", "c")]
    assert all(plan.claim == ["t9"] for plan in plans)


def test_leases_of_tables_over_or_unknown_are_released() -> None:
    leases = {"done": Lease("done", "a", 10.0), "theirs": Lease("theirs", "b", 10.0)}
    plan = plan_leases("a", [], leases, now=1.0)
    assert plan.release == ["done"]  # never another process's


def test_an_own_expired_lease_is_claimed_again_not_renewed() -> None:
    # the process stalled past its lease: whoever claims first drives, and the claim may be its own again
    plan = plan_leases("a", ["t1"], {"t1": Lease("t1", "a", 5.0)}, now=6.0)
    assert (plan.renew, plan.claim) == ([], ["t1"])


def test_the_heartbeat_renews_three_times_a_lease() -> None:
    assert beat_every(LEASE_SECONDS) * 3 == LEASE_SECONDS
