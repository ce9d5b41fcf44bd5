"""The rule of the leases (laro.server.leases), with an injected clock: who renews, claims and lets go of what."""

from __future__ import annotations

from laro.server.leases import LEASE_SECONDS, Lease, beat_every, fair_share, holds, plan_leases


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


# -- sharing the driving fairly ------------------------------------------------------------------------------------

TABLES = [f"t{n}" for n in range(7)]


def test_the_fair_share_is_the_tables_divided_by_the_live_processes_rounded_up() -> None:
    assert [fair_share(7, n) for n in (1, 2, 3, 7, 8)] == [7, 4, 3, 1, 1]
    assert fair_share(0, 3) == 0
    assert fair_share(4, 0) == 4  # nobody known alive: the process itself counts


def test_orphans_are_claimed_only_up_to_the_fair_share() -> None:
    leases = {"t0": Lease("t0", "a", 10.0), "t1": Lease("t1", "b", 10.0)}
    plan = plan_leases("a", TABLES, leases, now=5.0, processes=["a", "b", "c"])
    assert plan.renew == ["t0"]
    assert plan.claim == ["t2", "t3"]  # a share of 3: one held, two claimed; the others are left to b and c


def test_the_process_itself_counts_among_the_live_ones_even_unnamed() -> None:
    plan = plan_leases("a", TABLES, {}, now=0.0, processes=["b"])
    assert plan.claim == TABLES[:4]


def test_a_dead_processs_tables_end_up_spread_over_the_survivors() -> None:
    """Three processes drive two tables each; c dies. Its leases expire with its heartbeat, and a and b, each beating
    in turn (each reading what the other claimed), take one orphan each."""
    leases = {t: Lease(t, holder, 3.0) for t, holder in zip(TABLES[:6], "aabbcc", strict=True)}
    now = 3.5  # c stopped renewing; a and b renewed at 3.0 until 6.0
    leases.update({t: Lease(t, lease.holder, 6.0) for t, lease in leases.items() if lease.holder != "c"})
    first = plan_leases("a", TABLES[:6], leases, now, processes=["a", "b"])
    assert first.claim == ["t4"]  # a share of 3
    leases["t4"] = Lease("t4", "a", now + 3)
    second = plan_leases("b", TABLES[:6], leases, now, processes=["a", "b"])
    assert second.claim == ["t5"]
    assert not first.hand_over and not second.hand_over


def test_a_process_above_its_share_hands_the_surplus_over_among_its_quiet_tables() -> None:
    leases = {t: Lease(t, "a", 10.0) for t in TABLES[:6]}
    plan = plan_leases("a", TABLES[:6], leases, now=5.0, processes=["a", "b", "c"])
    assert plan.hand_over == ["t2", "t3", "t4", "t5"] and plan.renew == ["t0", "t1"]  # a share of 2
    busy = plan_leases("a", TABLES[:6], leases, now=5.0, processes=["a", "b", "c"], quiet={"t0", "t1"})
    assert busy.hand_over == ["t0", "t1"]  # the others have a bot thinking: they wait for a later heartbeat
    assert busy.claim == [] and busy.release == []
    none = plan_leases("a", TABLES[:6], leases, now=5.0, processes=["a", "b", "c"], quiet=set())
    assert none.hand_over == [] and len(none.renew) == 6


def test_a_process_at_its_share_keeps_its_tables() -> None:
    leases = {"t0": Lease("t0", "a", 10.0), "t1": Lease("t1", "a", 10.0), "t2": Lease("t2", "b", 10.0)}
    plan = plan_leases("a", ["t0", "t1", "t2"], leases, now=5.0, processes=["a", "b"])
    assert plan.hand_over == [] and plan.renew == ["t0", "t1"] and plan.claim == []
