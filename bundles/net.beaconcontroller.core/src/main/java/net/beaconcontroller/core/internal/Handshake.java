package net.beaconcontroller.core.internal;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.openflow.OFBarrierReply;
import net.beaconcontroller.openflow.OFBarrierRequest;
import net.beaconcontroller.openflow.OFError;
import net.beaconcontroller.openflow.OFFeaturesReply;
import net.beaconcontroller.openflow.OFFeaturesRequest;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFFlowRemoved;
import net.beaconcontroller.openflow.OFHello;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFMessageReader;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFSetConfig;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.statistics.OFDescStatsReply;
import net.beaconcontroller.openflow.statistics.OFDescStatsRequest;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * A switch connection's way from TCP to active, one phase after the other: HELLO (OpenFlow 1.0 only), features, the
 * claim of the DPID they name (see {@link SwitchIdentity}: nothing after it happens to a connection refused its
 * DPID), description, SET_CONFIG, the role the cluster gives it, the optional wipe of its flows, the initializer
 * listeners, and activation by the controller. Every request of the handshake shares one deadline, the echo timeout
 * after the connection; the keepalive enforces it as a whole. Messages that arrive before the switch is active are kept, up to
 * a bound, and replayed to the listeners after {@code addedSwitch}. Confined to the connection's I/O thread: every
 * phase starts there.
 */
final class Handshake {
    private static final Logger log = LoggerFactory.getLogger(Handshake.class);
    private static final int MISS_SEND_LEN_ALL = 0xffff;
    /** Messages that arrive before the switch is active wait, copied, up to this many bytes. */
    private static final int EARLY_MESSAGE_LIMIT = 1 << 20;

    /** What the handshake waits for. */
    enum Phase {
        HELLO("the switch's HELLO"), FEATURES("the features reply"),
        IDENTITY("the connection holding its DPID to answer"), DESCRIPTION("the description statistics"),
        ROLE("the switch's role"), FLOWS_DELETED("the barrier after deleting its flows"),
        INITIALIZERS("the initializer listeners"), DONE("nothing");

        private final String awaited;

        Phase(String awaited) {
            this.awaited = awaited;
        }
    }

    private final SwitchConnection sw;
    private final Controller controller;
    private final ControllerConfig.PreExistingFlows preExistingFlows;
    private final long deadline;
    private final Duration probeWindow;
    private Phase phase = Phase.HELLO;
    /** The switch a connection taken over from another core ({@link #resume}) was held as; null for a new one. */
    private String adoptedAs;
    private final List<byte[]> early = new ArrayList<>();
    private int earlyBytes;
    private long droppedEarly;

    Handshake(SwitchConnection sw, Controller controller, ControllerConfig.PreExistingFlows preExistingFlows,
            long deadline, Duration probeWindow) {
        this.sw = sw;
        this.controller = controller;
        this.preExistingFlows = preExistingFlows;
        this.deadline = deadline;
        this.probeWindow = probeWindow;
    }

    /** What the handshake waits for now, for the message of a connection closed before it ended. */
    String awaited() {
        return phase.awaited;
    }

    /** The switch's HELLO; a repeated one is ignored. OpenFlow 1.0 only: another peer gets HELLO_FAILED and is closed. */
    void hello(OFHello hello) {
        if (phase != Phase.HELLO) {
            return;
        }
        if (!HelloVersions.offersOpenFlow10(hello)) {
            sw.write(OFError.helloFailed(hello.xid(), "Beacon speaks OpenFlow 1.0 (wire version 1) only"));
            sw.flushNow();
            sw.close("incompatible OpenFlow version " + hello.version() + " (only 1.0 is supported)");
            return;
        }
        begin(false);
    }

    /**
     * Takes up a connection another core made active ({@link HandOver}): the switch is asked again for what the
     * handshake learns, as OpenFlow allows at any time, and its flows are never deleted, whatever the setting: they
     * are the ones it forwards with throughout the swap.
     */
    void resume(String switchId) {
        adoptedAs = switchId;
        begin(true);
    }

    /** The switch a resuming connection was taken over as, for the log until its features say it again. */
    String adoptedAs() {
        return adoptedAs;
    }

    private void begin(boolean adopted) {
        phase = Phase.FEATURES;
        sw.requests().send(new OFFeaturesRequest(sw.nextXid()), OFFeaturesReply.class, deadline)
                .thenCompose(this::claimed)
                .thenCompose(ignored -> described())
                .thenCompose(parts -> {
                    sw.info().described((OFDescStatsReply) parts.get(0).body());
                    sw.write(new OFSetConfig(sw.nextXid(), 0, MISS_SEND_LEN_ALL));
                    return role();
                })
                .thenCompose(ignored -> adopted ? CompletableFuture.completedFuture(null) : deleteFlows())
                .thenCompose(ignored -> {
                    phase = Phase.INITIALIZERS;
                    return controller.runInitializers(sw);
                })
                // Initializers may complete on any thread; activation belongs on this switch's I/O thread.
                .whenCompleteAsync((ignored, error) -> finish(error), sw::execute);
    }

    /** Completes on this connection's thread once it holds the DPID of {@code features}. */
    private CompletableFuture<Void> claimed(OFFeaturesReply features) {
        sw.info().featured(features);
        phase = Phase.IDENTITY;
        var refusal = sw.claimRefusal(features.datapathId());
        if (refusal.isPresent()) {
            // Not rate limited: only a certificate the CA signed gets here, and Open vSwitch retries at most every
            // max_backoff seconds.
            log.warn("switch {}: refused the connection from {} that claims it: {}", sw.getStringId(),
                    sw.getRemoteAddress(), refusal.get());
            sw.close("refused: " + refusal.get());
            return CompletableFuture.failedFuture(new SwitchIdentity.ClaimRefusedException(refusal.get()));
        }
        return controller.identity().claim(sw, probeWindow);
    }

    private CompletableFuture<List<OFStatsReply>> described() {
        phase = Phase.DESCRIPTION;
        return sw.requests().statistics(new OFStatsRequest(sw.nextXid(), 0, new OFDescStatsRequest()), deadline);
    }

    private CompletableFuture<NiciraRole> role() {
        phase = Phase.ROLE;
        var arbiter = controller.roleArbiter();
        return arbiter == null ? CompletableFuture.completedFuture(null) : sw.roles().fromArbiter(arbiter, deadline);
    }

    private CompletableFuture<OFBarrierReply> deleteFlows() {
        // Another controller masters this switch: its flows are not ours to delete. Reconciliation (the default)
        // happens once the switch is active, forwarding with its flows meanwhile.
        if (preExistingFlows != ControllerConfig.PreExistingFlows.DELETE || sw.roles().role() == NiciraRole.SLAVE) {
            return CompletableFuture.completedFuture(null);
        }
        phase = Phase.FLOWS_DELETED;
        sw.write(OFFlowMod.builder().xid(sw.nextXid()).command(OFFlowMod.Command.DELETE).match(OFMatch.ALL)
                .outPort(OFPort.NONE).build());
        return sw.requests().send(new OFBarrierRequest(sw.nextXid()), OFBarrierReply.class, deadline);
    }

    private void finish(Throwable error) {
        if (!sw.isHandshaking()) {
            return; // closed meanwhile: a switch that left must not become active
        }
        if (error != null) {
            sw.close("handshake failed: " + rootMessage(error));
        } else {
            phase = Phase.DONE;
            controller.makeActive(sw);
        }
    }

    /** A message that arrived before the switch became active, kept for the listeners. */
    void keepForLater(OFMessage msg) {
        if (earlyBytes + msg.length() > EARLY_MESSAGE_LIMIT) {
            // A switch may flood PACKET_INs as soon as it sent its features (cbench does), and deleting its flows may
            // bring a burst of FLOW_REMOVED: past the bound these are dropped, as a congested switch would drop them,
            // so that the handshake replies behind them still get through. Anything else in such numbers is a
            // broken peer.
            if (msg instanceof OFPacketIn || msg instanceof OFFlowRemoved) {
                droppedEarly++;
                return;
            }
            sw.close("more than " + EARLY_MESSAGE_LIMIT + " bytes of messages before the handshake completed");
            return;
        }
        earlyBytes += msg.length();
        // A PACKET_IN's frame is a view of the read buffer, which the next read overwrites: keep a copy.
        early.add(msg.toByteArray());
    }

    /**
     * Whether this is a connection taken over from another core that is not active again yet: a core that stops now
     * hands it on to the next one rather than closing it, as it would an active one.
     */
    boolean resuming() {
        return adoptedAs != null && phase != Phase.DONE;
    }

    /** The kept messages' bytes, in the order they came: what a resuming connection hands on unhandled. */
    ByteBuffer earlyBytes() {
        var all = ByteBuffer.allocate(earlyBytes);
        early.forEach(all::put);
        return all.flip();
    }

    /** Says how many early messages were dropped, if any. */
    void reportDropped() {
        if (droppedEarly > 0) {
            log.info("switch {}: dropped {} PACKET_IN/FLOW_REMOVED messages that arrived before the handshake completed",
                    sw.getStringId(), droppedEarly);
        }
    }

    /** The switch is active: what arrived early goes to {@code dispatch}, in order, while the switch stays active. */
    void replayEarly(Consumer<OFMessage> dispatch) {
        for (byte[] bytes : early) {
            if (!sw.isActive()) {
                break;
            }
            try {
                dispatch.accept(OFMessageReader.read(ByteBuffer.wrap(bytes)));
            } catch (OFParseException e) {
                throw new IllegalStateException("a message that parsed once no longer parses", e);
            }
        }
        forgetEarly();
    }

    /** Lets go of the kept messages (the switch left, or they were replayed). */
    void forgetEarly() {
        early.clear();
        earlyBytes = 0;
    }

    static String rootMessage(Throwable t) {
        while (t.getCause() != null && t != t.getCause()) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : t.toString();
    }
}
