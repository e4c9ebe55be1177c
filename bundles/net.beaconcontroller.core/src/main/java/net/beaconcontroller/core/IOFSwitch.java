package net.beaconcontroller.core;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import net.beaconcontroller.openflow.OFBarrierReply;
import net.beaconcontroller.openflow.OFFeaturesReply;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.statistics.OFDescStatsReply;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * A connected OpenFlow switch.
 *
 * <p>Writing: {@link #write} queues a message in the switch's output buffer. On the switch's own I/O thread (inside a
 * listener) that is a plain append, and the I/O loop sends the buffer after the current batch of messages; from any
 * other thread the message is handed to that I/O thread, which is woken up at once. With
 * {@code controller.immediate=true} every message is sent as soon as it is written.
 *
 * <p>Futures ({@link #getStatistics}, {@link #barrier}) complete on the switch's I/O thread: dependent actions must
 * not block. They fail with {@link java.util.concurrent.TimeoutException} after their timeout and with
 * {@link SwitchDisconnectedException} when the switch leaves first.
 */
public interface IOFSwitch {
    /** The datapath id. */
    long getId();

    /** The datapath id as 16 hex digits with colons, as Open vSwitch prints it. */
    String getStringId();

    OFFeaturesReply getFeatures();

    /** The switch's description statistics, read during the handshake. */
    OFDescStatsReply getDescription();

    /** The current ports, kept up to date from PORT_STATUS messages. */
    Collection<OFPhysicalPort> getPorts();

    /** @return the port, or {@code null} when the switch has no such port now */
    OFPhysicalPort getPort(int portNumber);

    void write(OFMessage msg);

    void write(List<? extends OFMessage> msgs);

    /** Sends what is queued now rather than at the end of the loop iteration; any thread. */
    void flush();

    /** A fresh transaction id for a request to this switch. */
    int nextXid();

    /**
     * Sends a statistics request (its xid is replaced by a fresh one) and collects every reply part until one
     * without the "more" flag arrives.
     */
    CompletableFuture<List<OFStatsReply>> getStatistics(OFStatsRequest request, Duration timeout);

    /** Sends a BARRIER_REQUEST; completes when the switch has processed everything sent before it. */
    CompletableFuture<OFBarrierReply> barrier(Duration timeout);

    /** Runs a task on this switch's I/O thread (at once when called there), e.g. to touch per-switch local state. */
    void execute(Runnable task);

    /**
     * This switch's value for {@code key}, made by the key's initial supplier on first use; {@code null} when there is
     * none. Only on the switch's I/O thread (see {@link SwitchLocal}).
     */
    <T> T getLocal(SwitchLocal<T> key);

    /** Sets this switch's value for {@code key}. Only on the switch's I/O thread. */
    <T> void setLocal(SwitchLocal<T> key, T value);

    /** Removes and returns this switch's value for {@code key}. Only on the switch's I/O thread. */
    <T> T removeLocal(SwitchLocal<T> key);

    /**
     * This controller's role on the switch: {@code OTHER} (full access, the OpenFlow default) unless an
     * {@link IRoleArbiter} chose one.
     */
    NiciraRole getRole();

    /**
     * Whether this controller is the one that writes to the switch: it masters it, or no cluster arbitrates and it has
     * the full access every controller has. A SLAVE writes through the master (see {@link IRoleArbiter}).
     */
    default boolean isMaster() {
        return getRole() != NiciraRole.SLAVE;
    }

    /**
     * Asks the switch for {@code role} (Nicira role request); completes with the role granted, on the switch's I/O
     * thread. A switch demotes its other masters to {@code SLAVE} when one becomes {@code MASTER}.
     */
    CompletableFuture<NiciraRole> setRole(NiciraRole role, Duration timeout);

    boolean isConnected();

    /** Closes the connection; listeners are told through {@link IOFSwitchListener#removedSwitch}. Any thread. */
    void disconnect(String reason);

    InetSocketAddress getRemoteAddress();

    Instant getConnectedSince();

    /** Name of the I/O thread that owns this switch. */
    String getThreadName();

    long getMessagesIn();

    long getMessagesOut();
}
