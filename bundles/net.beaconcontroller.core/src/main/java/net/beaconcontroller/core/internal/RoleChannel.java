package net.beaconcontroller.core.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.openflow.NiciraRoleRequest;
import net.beaconcontroller.openflow.NiciraRoleReply;
import net.beaconcontroller.openflow.OFBarrierReply;
import net.beaconcontroller.openflow.OFErrorCode;
import net.beaconcontroller.openflow.OFErrorType;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFFlowRemoved;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPortMod;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * This controller's role on one switch (Nicira role extension): asking for it, what the switch granted, and what the
 * role means for the connection's traffic (a slave's writes go through the master, the PACKET_INs are the master's).
 * The role is written only on the connection's I/O thread, from the switch's replies, and read on any thread.
 */
final class RoleChannel {
    private static final Logger log = LoggerFactory.getLogger(RoleChannel.class);

    private final SwitchConnection sw;
    private final Controller controller;
    /** How long an active switch's role request may take: the handshake's bound. */
    private final long adoptNanos;
    private volatile NiciraRole role = NiciraRole.OTHER;
    /** Role changes so far (see {@link Mastership}). */
    private volatile int epoch;
    /**
     * SLAVE requests sent and not answered yet. Meanwhile the switch may have taken the demotion in and would refuse a
     * write from here, so writes go through the master already (the cluster names the new master in its map before
     * it steps this member down). Written on the loop thread.
     */
    private volatile int steppingDown;
    /** The switch answered a role request with an error: it has no Nicira role extension. Loop thread. */
    private boolean refused;
    private volatile boolean warnedNoMaster;

    RoleChannel(SwitchConnection sw, Controller controller, long adoptNanos) {
        this.sw = sw;
        this.controller = controller;
        this.adoptNanos = adoptNanos;
    }

    NiciraRole role() {
        return role;
    }

    int epoch() {
        return epoch;
    }

    /**
     * Whether {@code msg} may not go to the switch from here: a slave's flow, packet and port changes go through the
     * master, as do those of a member stepping down to SLAVE.
     */
    boolean writesThroughMaster(OFMessage msg) {
        return throughMaster()
                && (msg instanceof OFFlowMod || msg instanceof OFPacketOut || msg instanceof OFPortMod);
    }

    private boolean throughMaster() {
        return role == NiciraRole.SLAVE || steppingDown > 0;
    }

    /** Whether a SLAVE request is on its way: writes from here go through the master (see {@link #steppingDown}). */
    boolean steppingDown() {
        return steppingDown > 0;
    }

    void writeThroughMaster(OFMessage msg) {
        var arbiter = controller.roleArbiter();
        if (arbiter != null) {
            arbiter.writeThroughMaster(sw, msg);
        } else if (!warnedNoMaster) {
            warnedNoMaster = true;
            log.warn("switch {}: dropped a {} written while this controller is SLAVE and no cluster is running",
                    sw.getStringId(), msg.type());
        }
    }

    /** Whether the listeners here are to see {@code msg}, or it is another controller's to handle (see {@link IRoleArbiter}). */
    boolean handles(OFMessage msg) {
        if (!(msg instanceof OFPacketIn || msg instanceof OFFlowRemoved)) {
            return true;
        }
        if (role == NiciraRole.SLAVE) {
            return false; // sent before the switch took our demotion in
        }
        var arbiter = controller.roleArbiter();
        return arbiter == null || arbiter.handles(sw, msg);
    }

    /** A slave's flow table writes went to the switch through its master: only a barrier there orders them. */
    CompletableFuture<OFBarrierReply> orderedThroughMaster(CompletableFuture<OFBarrierReply> barrier, Duration timeout) {
        var arbiter = controller.roleArbiter();
        if (!throughMaster() || arbiter == null) {
            return barrier;
        }
        return barrier.thenCombine(arbiter.barrierThroughMaster(sw, timeout), (reply, ignored) -> reply);
    }

    /** Asks {@code arbiter} which role to take and the switch for it, on the loop thread; by {@code deadline}. */
    CompletableFuture<NiciraRole> fromArbiter(IRoleArbiter arbiter, long deadline) {
        return arbiter.initialRole(sw).toCompletableFuture().thenComposeAsync(wanted -> request(wanted, deadline)
                .exceptionallyCompose(e -> withoutRoles(wanted, e)), sw::execute);
    }

    /** An active switch asks {@code arbiter} for its role, as a connecting one does during the handshake. Any thread. */
    void adopt(IRoleArbiter arbiter) {
        sw.execute(() -> {
            if (!sw.isActive()) {
                return;
            }
            fromArbiter(arbiter, sw.loop().now + adoptNanos).whenComplete((granted, error) -> {
                if (error != null) {
                    log.warn("switch {}: no role from the cluster: {}", sw.getStringId(), Handshake.rootMessage(error));
                }
            });
        });
    }

    /**
     * On the loop thread; the role is ours once the switch has granted it. A switch without the Nicira extension
     * (cbench, for one) answers with an error: it fails with {@link UnsupportedOperationException} then and from then
     * on, without asking again.
     */
    CompletableFuture<NiciraRole> request(NiciraRole wanted, long deadline) {
        if (refused) {
            return CompletableFuture.failedFuture(unsupported());
        }
        boolean down = wanted == NiciraRole.SLAVE && role != NiciraRole.SLAVE;
        if (down) {
            steppingDown++;
        }
        return sw.requests().send(new NiciraRoleRequest(sw.nextXid(), wanted), NiciraRoleReply.class, deadline)
                .handle((reply, error) -> {
                    try {
                        return answered(reply, error);
                    } finally {
                        // After the role is set: a write in between would otherwise go to the switch that refuses it.
                        if (down) {
                            steppingDown--;
                        }
                    }
                });
    }

    private NiciraRole answered(NiciraRoleReply reply, Throwable error) {
        if (error != null) {
            if (error instanceof ErrorReply e && e.error.errorType() == OFErrorType.BAD_REQUEST.value()
                    && (e.error.errorCode() == OFErrorCode.BadRequest.BAD_VENDOR.value()
                    || e.error.errorCode() == OFErrorCode.BadRequest.BAD_SUBTYPE.value())) {
                refused = true;
                throw unsupported();
            }
            throw error instanceof RuntimeException r ? r : new IllegalStateException(error);
        }
        return granted(reply.role());
    }

    private NiciraRole granted(NiciraRole granted) {
        // Every MASTER grant, repeated ones included: the switch demotes a master silently when another controller
        // becomes master, so the log is the only record of who held the switch when.
        if (granted != role) {
            log.info("switch {} ({}): role {} (was {})", sw.getStringId(), sw.getRemoteAddress(), granted, role);
        } else if (granted == NiciraRole.MASTER) {
            log.info("switch {} ({}): role MASTER (asserted again)", sw.getStringId(), sw.getRemoteAddress());
        }
        var was = role;
        role = granted;
        if (granted != was) {
            epoch++;
        }
        // Made master of a switch it already held as slave (fail-over, migration): the same reconciliation as at a
        // connection, never a wipe. During the handshake the activation does it.
        if (granted == NiciraRole.MASTER && was != NiciraRole.MASTER && sw.isActive()) {
            controller.reconcileFlows(sw);
        }
        return granted;
    }

    private UnsupportedOperationException unsupported() {
        return new UnsupportedOperationException("switch " + sw.getStringId() + " does not support the Nicira role extension");
    }

    /**
     * A switch that cannot take roles may still have this controller as its only one: when the cluster chose MASTER
     * it is handled with the OpenFlow default role (OTHER); connected to other members too, it would be handled by
     * each. Any other failure, or a role other than MASTER, ends the handshake.
     */
    private CompletableFuture<NiciraRole> withoutRoles(NiciraRole wanted, Throwable error) {
        var cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof UnsupportedOperationException && wanted == NiciraRole.MASTER) {
            log.warn("switch {} does not support the Nicira role extension: handled as this controller's own; connect it"
                    + " to one cluster member only", sw.getStringId());
            return CompletableFuture.completedFuture(NiciraRole.OTHER);
        }
        return CompletableFuture.failedFuture(cause);
    }
}
