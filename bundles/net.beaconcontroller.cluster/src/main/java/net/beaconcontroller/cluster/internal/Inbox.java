package net.beaconcontroller.cluster.internal;

import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.core.HazelcastInstance;

import net.beaconcontroller.util.Dpids;

/**
 * This member's inbox: the topic {@code beacon.member.<id>} on which the other members send it {@link Message}s, and
 * each message handed to the part it is for, on the member's thread (the coordinator). Messages arrive on Hazelcast's
 * event threads.
 */
final class Inbox {
    private static final Logger log = LoggerFactory.getLogger(Inbox.class);

    private final Forwarding forwarding;
    private final Migrations migrations;
    private final Coordinator coordinator;
    /** The topic's listener: added by the join (the coordinator thread), moved by a merge (the store's thread). */
    private volatile UUID listener;

    Inbox(Forwarding forwarding, Migrations migrations, Coordinator coordinator) {
        this.forwarding = forwarding;
        this.migrations = migrations;
        this.coordinator = coordinator;
    }

    /** The topic member {@code id} receives its messages on. */
    static String topic(String id) {
        return "beacon.member." + id;
    }

    /** Starts receiving as member {@code self}. */
    void listen(HazelcastInstance hz, String self) {
        listener = hz.getTopic(topic(self)).addMessageListener(m -> receive(m.getMessageObject()));
    }

    /** Stops receiving as member {@code self}, an id this member no longer has. */
    void close(HazelcastInstance hz, String self) {
        hz.getTopic(topic(self)).removeMessageListener(listener);
    }

    private void receive(Object payload) {
        Message m;
        try {
            if (!(payload instanceof byte[] bytes)) {
                throw new IllegalArgumentException("not bytes but " + payload);
            }
            m = Message.decode(bytes);
        } catch (IllegalArgumentException e) {
            log.warn("cluster: dropped a message from another member: {}", e.getMessage());
            return;
        }
        coordinator.later(() -> {
            try {
                handle(m);
            } catch (RuntimeException e) {
                log.warn("cluster: {} for switch {} failed: {}", m.getClass().getSimpleName(),
                        Dpids.toString(m.dpid()), e.toString());
            }
        });
    }

    /** On the member's thread. */
    private void handle(Message m) {
        if (m instanceof Message.Write || m instanceof Message.Barrier) {
            forwarding.received(m);
        } else if (m instanceof Message.BarrierDone d) {
            forwarding.barrierDone(d);
        } else if (m instanceof Message.Migrate g) {
            migrations.migrateAsked(g);
        } else if (m instanceof Message.Step st) {
            migrations.received(st);
        } else if (m instanceof Message.Reassert r) {
            coordinator.reassertAsked(r.dpid());
        } else if (m instanceof Message.TakenOver t) {
            coordinator.takenOver(t.dpid(), t.from(), t.dead());
        }
    }
}
