"""The application is wired from what its store supports: a store several processes may share gives the hub a
cluster of processes as its peers; a store of one process gives it none (it drives every table alone)."""

from __future__ import annotations

from laro.server.app import create_app
from laro.server.cluster import Cluster
from laro.server.peers import Alone


def test_a_shared_store_gives_the_hub_a_cluster_and_a_store_of_one_process_none() -> None:
    shared = create_app("postgresql://laro@127.0.0.1:1/laro").state.server  # nothing connects before it starts
    assert shared.store.shared_rows() is not None and isinstance(shared.hub.peers, Cluster)
    assert not shared.hub.peers.alone and not shared.hub.drives("t1")  # no lease yet
    alone = create_app("sqlite::memory:").state.server
    assert alone.store.shared_rows() is None and isinstance(alone.hub.peers, Alone)
    assert alone.hub.peers.alone and alone.hub.drives("t1")
