package net.beaconcontroller.cluster.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.map.listener.MapListener;

/**
 * Hazelcast's events for this member, which arrive on Hazelcast's threads, handed to the coordinator: members joining
 * and leaving, a merge after a split, and the masters map's changes.
 */
final class Events {
    private static final Logger log = LoggerFactory.getLogger(Events.class);

    private final Coordinator coordinator;

    Events(Coordinator coordinator) {
        this.coordinator = coordinator;
    }

    /** For the masters map ({@code beacon.masters}), with values. */
    MapListener masters() {
        return new MastersListener();
    }

    /**
     * Listens to the member's membership and lifecycle.
     *
     * @param merged runs when Hazelcast has merged this member back after a split
     */
    void listen(HazelcastInstance hz, Runnable merged) {
        hz.getLifecycleService().addLifecycleListener(e -> {
            switch (e.getState()) {
                case MERGING -> coordinator.mergeStarted();
                case MERGED -> merged.run();
                case MERGE_FAILED -> coordinator.mergeFailed();
                default -> { }
            }
        });
        hz.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent e) {
                log.info("cluster: member {} joined ({} members)", e.getMember().getAddress(), e.getMembers().size());
                coordinator.memberJoined();
            }

            @Override
            public void memberRemoved(MembershipEvent e) {
                log.warn("cluster: member {} left ({} members)", e.getMember().getAddress(), e.getMembers().size());
                coordinator.memberLeft(e.getMember().getUuid().toString(), Members.address(e.getMember()));
            }
        });
    }

    private final class MastersListener implements EntryAddedListener<Long, String>,
            EntryUpdatedListener<Long, String>, EntryRemovedListener<Long, String>, EntryMergedListener<Long, String> {
        @Override
        public void entryAdded(EntryEvent<Long, String> e) {
            coordinator.masterChanged(e.getKey(), e.getValue());
        }

        @Override
        public void entryUpdated(EntryEvent<Long, String> e) {
            coordinator.masterChanged(e.getKey(), e.getValue());
        }

        @Override
        public void entryMerged(EntryEvent<Long, String> e) {
            coordinator.masterChanged(e.getKey(), e.getValue());
        }

        @Override
        public void entryRemoved(EntryEvent<Long, String> e) {
            coordinator.masterRemoved(e.getKey());
        }
    }
}
