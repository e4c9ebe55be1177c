package net.beaconcontroller.cluster.internal;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * What the parts of a member (write forwarding, migrations) need of the member: its id, its switches, its view of
 * the masters, a way to message another member, and its one thread for later work. Membership implements it; a test
 * can implement it in memory.
 */
interface Peers {
    /** This member's id. */
    String self();

    /** This member's side of a switch connected to it, or null. */
    SwitchState local(long dpid);

    /**
     * The switch's master as this member last saw the masters map (no network round trip), or null: none, or one that
     * has left the cluster.
     */
    String master(long dpid);

    void send(String member, Message m);

    /** Sends a step of the migration {@code id} of switch {@code dpid}, from this member. */
    default void step(String member, Message.Phase phase, long dpid, long id) {
        send(member, new Message.Step(phase, dpid, self(), id));
    }

    /** Runs a task on the member's thread after {@code millis}, unless the member has stopped meanwhile. */
    void after(long millis, Runnable task);

    /** How long a request to a switch may take (cluster.migrationTimeout). */
    Duration timeout();

    /** A member id as its address, for log lines. */
    String describe(String member);

    /**
     * The hand-over point of a migration: the masters map names {@code target}. Any thread; completes on the member's
     * thread once the map does, and waits for nothing.
     */
    CompletionStage<Void> handOver(long dpid, String target);

    /** This member is handing its switches over before it leaves: it takes none. */
    boolean leaving();
}
