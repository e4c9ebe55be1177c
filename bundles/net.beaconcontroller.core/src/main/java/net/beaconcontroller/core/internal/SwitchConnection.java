package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.core.SwitchDisconnectedException;
import net.beaconcontroller.core.SwitchLocal;
import net.beaconcontroller.openflow.OFBarrierReply;
import net.beaconcontroller.openflow.OFBarrierRequest;
import net.beaconcontroller.openflow.OFEchoReply;
import net.beaconcontroller.openflow.OFEchoRequest;
import net.beaconcontroller.openflow.OFError;
import net.beaconcontroller.openflow.OFErrorCode;
import net.beaconcontroller.openflow.OFErrorType;
import net.beaconcontroller.openflow.OFFeaturesReply;
import net.beaconcontroller.openflow.OFFeaturesRequest;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFFlowRemoved;
import net.beaconcontroller.openflow.OFHello;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFMessageReader;
import net.beaconcontroller.openflow.NiciraRoleReply;
import net.beaconcontroller.openflow.NiciraRoleRequest;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPortMod;
import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.openflow.OFSetConfig;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFDescStatsReply;
import net.beaconcontroller.openflow.statistics.OFDescStatsRequest;
import net.beaconcontroller.openflow.statistics.OFFlowStatsRequest;
import net.beaconcontroller.openflow.vendor.NiciraRole;
import net.beaconcontroller.util.Dpids;

/**
 * One switch connection: its buffers, its handshake, its requests in flight. Everything here runs on the owning
 * {@link IOLoop}'s thread except the {@link IOFSwitch} methods documented as callable from any thread, which hand
 * their work to the loop.
 */
final class SwitchConnection implements IOFSwitch {
    private static final Logger log = LoggerFactory.getLogger(SwitchConnection.class);
    /** Big enough for the largest OpenFlow message (64 KiB) plus a batch of small ones. */
    private static final int READ_BUFFER_SIZE = 128 * 1024;
    private static final int INITIAL_WRITE_BUFFER_SIZE = 64 * 1024;
    /** A grown output buffer goes back to the initial size once a flush has not needed more for this long. */
    private static final long SHRINK_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Messages that arrive before the switch is active wait, copied, up to this many bytes. */
    private static final int EARLY_MESSAGE_LIMIT = 1 << 20;
    private static final int MISS_SEND_LEN_ALL = 0xffff;
    private static final Object[] NO_LOCALS = new Object[0];
    /**
     * How many messages ahead of the one being handled the PACKET_IN prefetchers see: enough for the loads of one
     * batch to overlap (measured with the MAC table: 8 ahead saves a quarter of the stall, 32 and 128 about 40 %).
     */
    static final int PREFETCH_AHEAD = 32;
    private static final byte PACKET_IN_TYPE = (byte) OFType.PACKET_IN.value();

    private enum State { HANDSHAKE, ACTIVE, CLOSED }

    private final Controller controller;
    private final IOLoop loop;
    private final SocketChannel channel;
    private final SelectionKey key;
    private final InetSocketAddress remote;
    private final Instant connectedSince = Instant.now();
    private final long connectedNanos;
    private final ByteBuffer readBuf = ByteBuffer.allocateDirect(READ_BUFFER_SIZE);
    private ByteBuffer writeBuf = ByteBuffer.allocateDirect(INITIAL_WRITE_BUFFER_SIZE);
    private final int writeLimit;
    private final boolean immediate;
    private final ControllerConfig.PreExistingFlows preExistingFlows;
    private final int echoIntervalSeconds;
    private final int echoTimeoutSeconds;
    private boolean dirty;
    /** When a flush last held more than the initial buffer size (loop clock). */
    private long lastLargeOutput;
    /** The output failed (limit reached, write error): writes are dropped until the queued close runs. */
    private boolean failed;

    // Written only by the loop thread; volatile because isConnected() may be polled from any thread.
    private volatile State state = State.HANDSHAKE;
    private final PendingRequests pending = new PendingRequests();
    private final List<byte[]> early = new ArrayList<>();
    private int earlyBytes;
    private long droppedEarly;
    private final AtomicInteger xid = new AtomicInteger(1);
    private boolean helloReceived;
    private long lastReceived;
    private boolean echoOutstanding;
    private volatile boolean warnedNoMaster;
    /**
     * The switch listeners told {@code addedSwitch} of this connection, so each hears it once and hears
     * {@code removedSwitch} only after it, whether it was registered before the switch became active or after. Loop
     * thread.
     */
    private final Set<IOFSwitchListener> told = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The switch answered a role request with an error: it has no Nicira role extension. Loop thread. */
    private boolean rolesRefused;

    /** Written only by the loop thread, from the switch's role replies; read by writers on any thread. */
    private volatile NiciraRole role = NiciraRole.OTHER;
    /** Role changes so far (see {@link Mastership}). Written only by the loop thread. */
    private volatile int roleEpoch;
    /** While a reconciliation reads and writes the flow table: the flows written since its request. Loop thread. */
    private WrittenSinceRead writtenSinceRead;
    private volatile OFFeaturesReply features;
    private volatile OFDescStatsReply description;
    private final ConcurrentMap<Integer, OFPhysicalPort> ports = new ConcurrentHashMap<>();
    /** Values of {@link SwitchLocal} keys by their index; touched only by the loop thread. */
    private Object[] locals = NO_LOCALS;
    // Written only by the loop thread; others read them for the console, where a slightly stale count is fine.
    private long messagesIn;
    private long messagesOut;

    SwitchConnection(Controller controller, IOLoop loop, SocketChannel channel, SelectionKey key) throws IOException {
        this.controller = controller;
        this.loop = loop;
        this.channel = channel;
        this.key = key;
        this.remote = (InetSocketAddress) channel.getRemoteAddress();
        // Read once per connection: a changed setting applies to the switches that connect afterwards.
        var config = controller.config();
        this.writeLimit = config.outputBufferLimit();
        this.immediate = config.immediate();
        this.preExistingFlows = config.preExistingFlows();
        this.echoIntervalSeconds = config.echoInterval();
        this.echoTimeoutSeconds = config.echoTimeout();
        channel.socket().setTcpNoDelay(config.noDelay());
        this.connectedNanos = loop.now;
        this.lastReceived = loop.now;
    }

    /** Opens the handshake: HELLO goes out at once, the rest follows the switch's HELLO. */
    void start() {
        log.debug("connection from {} on {}", remote, loop.threadName());
        write(new OFHello(nextXid()));
        flushNow();
    }

    // ---------------------------------------------------------------------------------------------------- reading

    void handleRead() {
        int n;
        try {
            n = channel.read(readBuf);
        } catch (IOException e) {
            close("read failed: " + e.getMessage());
            return;
        }
        if (n < 0) {
            close("connection closed by the switch");
            return;
        }
        lastReceived = loop.now;
        echoOutstanding = false;
        readBuf.flip();
        int prefetchedTo = 0;
        try {
            OFMessage msg;
            while (state != State.CLOSED) {
                if (readBuf.position() >= prefetchedTo) {
                    prefetchedTo = prefetchAhead();
                }
                if ((msg = OFMessageReader.read(readBuf)) == null) {
                    break;
                }
                messagesIn++;
                handle(msg);
            }
        } catch (OFParseException e) {
            close("malformed message: " + e.getMessage());
            return;
        }
        if (state != State.CLOSED) {
            readBuf.compact();
        }
    }

    /**
     * Shows the PACKET_INs among the next {@value #PREFETCH_AHEAD} complete messages from the read position to the
     * pipeline's prefetching listeners (see {@link net.beaconcontroller.core.IOFMessageListener#prefetch}).
     *
     * @return the index after the last message looked at; the buffer's limit when there is nothing to do
     */
    private int prefetchAhead() {
        int limit = readBuf.limit();
        var prefetchers = controller.packetInPrefetchers();
        if (prefetchers.length == 0 || state != State.ACTIVE) {
            return limit;
        }
        int p = readBuf.position();
        // A read of one message (a switch with one packet in flight) has no misses to overlap.
        if (limit - p < OFMessage.HEADER_LENGTH || (readBuf.getShort(p + 2) & 0xffff) >= limit - p) {
            return limit;
        }
        var frame = loop.prefetchFrame();
        var prefetch = loop.prefetch();
        // Only the header is trusted here, and only as far as the reader will check it: a malformed message stops
        // the look-ahead, and the reader then closes the connection.
        for (int n = 0; n < PREFETCH_AHEAD && limit - p >= OFMessage.HEADER_LENGTH; n++) {
            int length = readBuf.getShort(p + 2) & 0xffff;
            if (length < OFMessage.HEADER_LENGTH || length > limit - p) {
                break;
            }
            if (readBuf.get(p + 1) == PACKET_IN_TYPE && length >= OFPacketIn.MIN_LENGTH) {
                Controller.prefetch(prefetchers, this, readBuf.getShort(p + 14) & 0xffff,
                        frame.wrap(readBuf, p + OFPacketIn.MIN_LENGTH, p + length), prefetch);
            }
            p += length;
        }
        prefetch.run();
        return p;
    }

    private void handle(OFMessage msg) {
        if (msg instanceof OFEchoRequest echo) {
            write(new OFEchoReply(echo.xid(), echo.data()));
        } else if (msg instanceof OFPortStatus status) {
            updatePort(status);
        } else if (msg instanceof OFHello hello) {
            if (!helloReceived) {
                helloReceived = true;
                negotiate(hello);
            }
            return;
        }
        if (pending.complete(msg, loop.now)) {
            return;
        }
        if (state == State.ACTIVE) {
            dispatch(msg);
        } else if (state == State.HANDSHAKE && !(msg instanceof OFEchoRequest) && !(msg instanceof OFEchoReply)) {
            keepForLater(msg);
        }
    }

    /** OpenFlow 1.0 only: a peer whose HELLO rules 1.0 out gets HELLO_FAILED and is closed. */
    private void negotiate(OFHello hello) {
        if (!HelloVersions.offersOpenFlow10(hello)) {
            write(OFError.helloFailed(hello.xid(), "Beacon speaks OpenFlow 1.0 (wire version 1) only"));
            flushNow();
            close("incompatible OpenFlow version " + hello.version() + " (only 1.0 is supported)");
            return;
        }
        long deadline = connectedNanos + TimeUnit.SECONDS.toNanos(echoTimeoutSeconds);
        request(new OFFeaturesRequest(nextXid()), OFType.FEATURES_REPLY, deadline)
                .thenCompose(reply -> {
                    var f = (OFFeaturesReply) reply;
                    features = f;
                    f.ports().forEach(p -> ports.put(p.portNo(), p));
                    return request(new OFStatsRequest(nextXid(), 0, new OFDescStatsRequest()), OFType.STATS_REPLY, deadline);
                })
                .thenCompose(parts -> {
                    @SuppressWarnings("unchecked")
                    var replies = (List<OFStatsReply>) parts;
                    description = (OFDescStatsReply) replies.get(0).body();
                    write(new OFSetConfig(nextXid(), 0, MISS_SEND_LEN_ALL));
                    var arbiter = controller.roleArbiter();
                    if (arbiter == null) {
                        return CompletableFuture.completedFuture(null);
                    }
                    return arbiter.initialRole(this).toCompletableFuture().thenComposeAsync(wanted ->
                            requestRole(wanted, deadline).exceptionallyCompose(e -> withoutRoles(wanted, e)), this::execute);
                })
                .thenCompose(ignored -> {
                    // Another controller masters this switch: its flows are not ours to delete. Reconciliation
                    // (the default) happens once the switch is active, forwarding with its flows meanwhile.
                    if (preExistingFlows != ControllerConfig.PreExistingFlows.DELETE || role == NiciraRole.SLAVE) {
                        return CompletableFuture.completedFuture(null);
                    }
                    write(OFFlowMod.builder().xid(nextXid()).command(OFFlowMod.Command.DELETE).match(OFMatch.ALL)
                            .outPort(OFPort.NONE).build());
                    return request(new OFBarrierRequest(nextXid()), OFType.BARRIER_REPLY, deadline);
                })
                .thenCompose(ignored -> controller.runInitializers(this))
                // Initializers may complete on any thread; activation belongs on this switch's I/O thread.
                .whenCompleteAsync((ignored, error) -> {
                    if (state != State.HANDSHAKE) {
                        return; // closed meanwhile: a switch that left must not become active
                    }
                    if (error != null) {
                        close("handshake failed: " + rootMessage(error));
                    } else {
                        controller.makeActive(this);
                    }
                }, this::execute);
    }

    private void updatePort(OFPortStatus status) {
        var port = status.desc();
        if (status.reason() == OFPortStatus.Reason.DELETE) {
            ports.remove(port.portNo());
        } else {
            ports.put(port.portNo(), port);
        }
    }

    /** Hands a message to the listeners unless it is another controller's to handle (see {@link IRoleArbiter}). */
    private void dispatch(OFMessage msg) {
        if ((msg instanceof OFPacketIn || msg instanceof OFFlowRemoved) && !handles(msg)) {
            return;
        }
        controller.dispatch(this, msg);
    }

    private boolean handles(OFMessage msg) {
        if (role == NiciraRole.SLAVE) {
            return false; // sent before the switch took our demotion in
        }
        var arbiter = controller.roleArbiter();
        return arbiter == null || arbiter.handles(this, msg);
    }

    private void keepForLater(OFMessage msg) {
        if (earlyBytes + msg.length() > EARLY_MESSAGE_LIMIT) {
            // A switch may flood PACKET_INs as soon as it sent its features (cbench does), and deleting its flows may
            // bring a burst of FLOW_REMOVED: past the bound these are dropped, as a congested switch would drop them,
            // so that the handshake replies behind them still get through. Anything else in such numbers is a
            // broken peer.
            if (msg instanceof OFPacketIn || msg instanceof OFFlowRemoved) {
                droppedEarly++;
                return;
            }
            close("more than " + EARLY_MESSAGE_LIMIT + " bytes of messages before the handshake completed");
            return;
        }
        earlyBytes += msg.length();
        // A PACKET_IN's frame is a view of the read buffer, which the next read overwrites: keep a copy.
        early.add(msg.toByteArray());
    }

    /** Whether {@code listener} is to be told {@code addedSwitch} now: once per listener, while active. Loop thread. */
    boolean tellAdded(IOFSwitchListener listener) {
        return state == State.ACTIVE && told.add(listener);
    }

    /** Whether {@code listener} heard {@code addedSwitch} and so is to hear {@code removedSwitch}. Loop thread. */
    boolean tellRemoved(IOFSwitchListener listener) {
        return told.remove(listener);
    }

    /** Becomes active (called by the controller once listeners may see this switch); replays what arrived early. */
    void becomeActive() {
        state = State.ACTIVE;
        log.info("switch {} connected from {} on {}", getStringId(), remote, loop.threadName());
        if (droppedEarly > 0) {
            log.info("switch {}: dropped {} PACKET_IN/FLOW_REMOVED messages that arrived before the handshake completed",
                    getStringId(), droppedEarly);
        }
        controller.switchAdded(this);
        for (byte[] bytes : early) {
            if (state != State.ACTIVE) {
                break;
            }
            try {
                dispatch(OFMessageReader.read(ByteBuffer.wrap(bytes)));
            } catch (OFParseException e) {
                throw new IllegalStateException("a message that parsed once no longer parses", e);
            }
        }
        early.clear();
        earlyBytes = 0;
        if (state == State.ACTIVE && role != NiciraRole.SLAVE) {
            controller.reconcileFlows(this);
        }
    }

    // -------------------------------------------------------------------------------------------- requests, replies

    private CompletableFuture<Object> request(OFMessage msg, OFType expected, long deadline) {
        var future = pending.add(msg.xid(), expected, deadline);
        write(msg);
        return future;
    }

    @Override
    @SuppressWarnings("unchecked")
    public CompletableFuture<List<OFStatsReply>> getStatistics(OFStatsRequest request, Duration timeout) {
        var result = new CompletableFuture<List<OFStatsReply>>();
        execute(() -> {
            if (state == State.CLOSED) {
                result.completeExceptionally(new SwitchDisconnectedException("switch " + getStringId() + " disconnected"));
                return;
            }
            var msg = new OFStatsRequest(nextXid(), request.flags(), request.body());
            request(msg, OFType.STATS_REPLY, loop.now + nanos(timeout))
                    .whenComplete((v, e) -> complete(result, (List<OFStatsReply>) v, e));
            flushNow();
        });
        return result;
    }

    // ------------------------------------------------------------------------------------------ reconciliation

    /** The role this controller holds the switch in now. Loop thread. */
    Mastership mastership() {
        return new Mastership(roleEpoch, role);
    }

    /** Whether this controller still holds the active switch under {@code m}; final when asked on the loop thread. */
    boolean holds(Mastership m) {
        return state == State.ACTIVE && roleEpoch == m.epoch();
    }

    /**
     * Reads the switch's flow table for a reconciliation under {@code m}: each reply part may take {@code silence}
     * after the previous one, and more than {@code maxFlows} flows fail it ({@link PendingRequests.TableTooLargeException}).
     * From the request on, the flows written to the switch are remembered (see {@link #writeReconciled}) until
     * {@link #endReconciliation}. Any thread.
     */
    @SuppressWarnings("unchecked")
    CompletableFuture<List<OFStatsReply>> readFlowTable(Mastership m, Duration silence, int maxFlows) {
        var result = new CompletableFuture<List<OFStatsReply>>();
        execute(() -> {
            if (!holds(m)) {
                result.completeExceptionally(notHeld(m));
                return;
            }
            writtenSinceRead = new WrittenSinceRead(m, maxFlows);
            var msg = new OFStatsRequest(nextXid(), 0, OFFlowStatsRequest.all());
            pending.addFlowTable(msg.xid(), loop.now, nanos(silence), maxFlows)
                    .whenComplete((v, e) -> complete(result, (List<OFStatsReply>) v, e));
            write(msg);
            flushNow();
        });
        return result;
    }

    /**
     * Writes a reconciliation's messages while this controller holds the switch under {@code m}, straight to the
     * switch (a member demoted meanwhile writes nothing, never through the new master), leaving out the strict
     * deletes that would take off a flow written since the table was read. Any thread.
     *
     * @return how many deletes were left out; fails with {@link MastershipLostException} when {@code m} is over
     */
    CompletableFuture<Integer> writeReconciled(Mastership m, List<? extends OFMessage> msgs) {
        var result = new CompletableFuture<Integer>();
        execute(() -> {
            if (!holds(m)) {
                result.completeExceptionally(notHeld(m));
                return;
            }
            int left = 0;
            for (var msg : msgs) {
                if (msg instanceof OFFlowMod mod && mod.command() == OFFlowMod.Command.DELETE_STRICT
                        && writtenSinceRead != null && writtenSinceRead.hits(mod)) {
                    left++;
                } else {
                    write(msg);
                }
            }
            flushNow();
            result.complete(left);
        });
        return result;
    }

    /** The reconciliation under {@code m} is over: written flows are no longer remembered. Any thread. */
    void endReconciliation(Mastership m) {
        execute(() -> {
            if (writtenSinceRead != null && writtenSinceRead.readUnder().equals(m)) {
                writtenSinceRead = null;
            }
        });
    }

    private RuntimeException notHeld(Mastership m) {
        return state == State.ACTIVE ? new MastershipLostException(m.role(), role)
                : new SwitchDisconnectedException("switch " + getStringId() + " disconnected");
    }

    @Override
    public NiciraRole getRole() {
        return role;
    }

    @Override
    public CompletableFuture<NiciraRole> setRole(NiciraRole wanted, Duration timeout) {
        var result = new CompletableFuture<NiciraRole>();
        execute(() -> {
            if (state == State.CLOSED) {
                result.completeExceptionally(new SwitchDisconnectedException("switch " + getStringId() + " disconnected"));
                return;
            }
            requestRole(wanted, loop.now + nanos(timeout)).whenComplete((v, e) -> complete(result, v, e));
            flushNow();
        });
        return result;
    }

    /** An active switch asks {@code arbiter} for its role, as a connecting one does during the handshake. */
    void adoptRole(IRoleArbiter arbiter) {
        execute(() -> {
            if (state != State.ACTIVE) {
                return;
            }
            long deadline = loop.now + TimeUnit.SECONDS.toNanos(echoTimeoutSeconds);
            arbiter.initialRole(this).toCompletableFuture()
                    .thenComposeAsync(wanted -> requestRole(wanted, deadline)
                            .exceptionallyCompose(e -> withoutRoles(wanted, e)), this::execute)
                    .whenComplete((role, error) -> {
                        if (error != null) {
                            log.warn("switch {}: no role from the cluster: {}", getStringId(), rootMessage(error));
                        }
                    });
        });
    }

    /**
     * On the loop thread; the role is ours once the switch has granted it. A switch without the Nicira extension
     * (cbench, for one) answers with an error: it fails with {@link UnsupportedOperationException} then and from then
     * on, without asking again.
     */
    private CompletableFuture<NiciraRole> requestRole(NiciraRole wanted, long deadline) {
        if (rolesRefused) {
            return CompletableFuture.failedFuture(rolesUnsupported());
        }
        return request(new NiciraRoleRequest(nextXid(), wanted), OFType.VENDOR, deadline).handle((reply, error) -> {
            if (error != null) {
                if (error instanceof ErrorReply e && e.error.errorType() == OFErrorType.BAD_REQUEST.value()
                        && (e.error.errorCode() == OFErrorCode.BadRequest.BAD_VENDOR.value()
                        || e.error.errorCode() == OFErrorCode.BadRequest.BAD_SUBTYPE.value())) {
                    rolesRefused = true;
                    throw rolesUnsupported();
                }
                throw error instanceof RuntimeException r ? r : new IllegalStateException(error);
            }
            var granted = ((NiciraRoleReply) reply).role();
            // Every MASTER grant, repeated ones included: the switch demotes a master silently when another
            // controller becomes master, so the log is the only record of who held the switch when.
            if (granted != role) {
                log.info("switch {}: role {} (was {})", getStringId(), granted, role);
            } else if (granted == NiciraRole.MASTER) {
                log.info("switch {}: role MASTER (asserted again)", getStringId());
            }
            var was = role;
            role = granted;
            if (granted != was) {
                roleEpoch++;
            }
            // Made master of a switch it already held as slave (fail-over, migration): the same reconciliation as at a
            // connection, never a wipe. During the handshake the activation does it.
            if (granted == NiciraRole.MASTER && was != NiciraRole.MASTER && state == State.ACTIVE) {
                controller.reconcileFlows(this);
            }
            return granted;
        });
    }

    private UnsupportedOperationException rolesUnsupported() {
        return new UnsupportedOperationException("switch " + getStringId() + " does not support the Nicira role extension");
    }

    /**
     * A switch that cannot take roles may still have this controller as its only one: when the cluster chose MASTER
     * it is handled with the OpenFlow default role (OTHER); connected to other members too, it would be handled by
     * each. Any other failure, or a role other than MASTER, ends the handshake.
     */
    private CompletableFuture<NiciraRole> withoutRoles(NiciraRole wanted, Throwable error) {
        var cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause() : error;
        if (cause instanceof UnsupportedOperationException && wanted == NiciraRole.MASTER) {
            log.warn("switch {} does not support the Nicira role extension: handled as this controller's own; connect it"
                    + " to one cluster member only", getStringId());
            return CompletableFuture.completedFuture(NiciraRole.OTHER);
        }
        return CompletableFuture.failedFuture(cause);
    }

    @Override
    public CompletableFuture<OFBarrierReply> barrier(Duration timeout) {
        var result = new CompletableFuture<OFBarrierReply>();
        execute(() -> {
            if (state == State.CLOSED) {
                result.completeExceptionally(new SwitchDisconnectedException("switch " + getStringId() + " disconnected"));
                return;
            }
            request(new OFBarrierRequest(nextXid()), OFType.BARRIER_REPLY, loop.now + nanos(timeout))
                    .whenComplete((v, e) -> complete(result, (OFBarrierReply) v, e));
            flushNow();
        });
        var arbiter = controller.roleArbiter();
        if (role != NiciraRole.SLAVE || arbiter == null) {
            return result;
        }
        // A slave's flow table writes went to the switch through its master: only a barrier there orders them.
        return result.thenCombine(arbiter.barrierThroughMaster(this, timeout), (reply, ignored) -> reply);
    }

    /** Timeouts beyond what nanoTime arithmetic can hold (e.g. "forever") are capped at 100 years. */
    private static long nanos(Duration timeout) {
        return Math.min(timeout.toSeconds(), TimeUnit.DAYS.toSeconds(36_500)) * 1_000_000_000L + timeout.toNanosPart();
    }

    private static <T> void complete(CompletableFuture<T> result, T value, Throwable error) {
        if (error != null) {
            result.completeExceptionally(error);
        } else {
            result.complete(value);
        }
    }

    // ------------------------------------------------------------------------------------------------------ timers

    void checkTimers(long now) {
        if (state == State.CLOSED) {
            return;
        }
        long idle = now - lastReceived;
        long timeout = TimeUnit.SECONDS.toNanos(echoTimeoutSeconds);
        if (state == State.HANDSHAKE && now - connectedNanos > timeout) {
            close("handshake not completed within " + echoTimeoutSeconds + " s");
            return;
        }
        if (idle > timeout) {
            close("no message for " + TimeUnit.NANOSECONDS.toSeconds(idle) + " s");
            return;
        }
        if (idle > TimeUnit.SECONDS.toNanos(echoIntervalSeconds) && !echoOutstanding) {
            echoOutstanding = true;
            write(new OFEchoRequest(nextXid()));
        }
        pending.expire(now, getStringId());
    }

    // ----------------------------------------------------------------------------------------------------- writing

    @Override
    public void write(OFMessage msg) {
        if (role == NiciraRole.SLAVE && (msg instanceof OFFlowMod || msg instanceof OFPacketOut || msg instanceof OFPortMod)) {
            writeThroughMaster(msg);
            return;
        }
        if (loop.inLoop()) {
            if (writtenSinceRead != null) {
                remember(FlowKey.installedBy(msg));
            }
            if (reserve(msg.length())) {
                msg.writeTo(writeBuf);
                written();
            }
        } else {
            // Serialized here, not later on the loop: the message may hold a view of the caller's read buffer (a
            // PACKET_IN frame), valid only while the caller handles that message.
            var bytes = msg.toByteArray();
            var installs = FlowKey.installedBy(msg);
            loop.execute(() -> {
                if (writtenSinceRead != null) {
                    remember(installs);
                }
                if (reserve(bytes.length)) {
                    writeBuf.put(bytes);
                    written();
                }
            });
        }
    }

    private void remember(FlowKey installed) {
        if (installed != null) {
            writtenSinceRead.written(installed);
        }
    }

    private void writeThroughMaster(OFMessage msg) {
        var arbiter = controller.roleArbiter();
        if (arbiter != null) {
            arbiter.writeThroughMaster(this, msg);
        } else if (!warnedNoMaster) {
            warnedNoMaster = true;
            log.warn("switch {}: dropped a {} written while this controller is SLAVE and no cluster is running",
                    getStringId(), msg.type());
        }
    }

    @Override
    public void write(List<? extends OFMessage> msgs) {
        msgs.forEach(this::write);
    }

    /** Makes room for {@code length} more bytes; false when the switch is gone or not reading. */
    private boolean reserve(int length) {
        if (state == State.CLOSED || failed) {
            return false;
        }
        if (writeBuf.remaining() >= length) {
            return true;
        }
        // Before growing towards the limit, give the socket what it takes now: a big burst to a switch that reads
        // is fine, only a switch that stops reading fills the buffer.
        flushNow();
        if (!failed && (writeBuf.remaining() >= length || grow(length))) {
            return true;
        }
        fail("output buffer limit of " + writeLimit + " bytes reached: the switch is not reading");
        return false;
    }

    private void written() {
        messagesOut++;
        if (immediate) {
            flushNow();
        } else if (!dirty) {
            dirty = true;
            loop.markDirty(this);
        }
    }

    /**
     * Closes the connection at the top of the next loop iteration rather than now: the failure was found inside
     * somebody's {@code write}, and telling listeners {@code removedSwitch} in the middle of their own call would
     * surprise them. Until then writes are dropped.
     */
    private void fail(String reason) {
        if (!failed) {
            failed = true;
            loop.post(() -> close(reason));
        }
    }

    private boolean grow(int needed) {
        int used = writeBuf.position();
        if ((long) used + needed > writeLimit) {
            return false;
        }
        int size = writeBuf.capacity();
        while (size < used + needed) {
            size = (int) Math.min((long) size * 2, writeLimit);
        }
        var bigger = ByteBuffer.allocateDirect(size);
        writeBuf.flip();
        bigger.put(writeBuf);
        writeBuf = bigger;
        lastLargeOutput = loop.now;
        return true;
    }

    /**
     * A burst (a switch that read slowly for a while, a big table dump) grows the output buffer; after it, the next
     * flush that finds the buffer drained and no big output for a second gives the memory back.
     */
    private void shrinkAfterBurst(int queued) {
        if (queued > INITIAL_WRITE_BUFFER_SIZE) {
            lastLargeOutput = loop.now;
        } else if (writeBuf.position() == 0 && loop.now - lastLargeOutput > SHRINK_AFTER_NANOS) {
            writeBuf = ByteBuffer.allocateDirect(INITIAL_WRITE_BUFFER_SIZE);
        }
    }

    /** The output buffer's current size, for tests. */
    int outputCapacity() {
        return writeBuf.capacity();
    }

    @Override
    public void flush() {
        execute(this::flushNow);
    }

    boolean hasQueuedOutput() {
        return writeBuf.position() > 0;
    }

    /** Writes as much as the socket takes; what is left waits for OP_WRITE. */
    void flushNow() {
        dirty = false;
        if (state == State.CLOSED || failed || writeBuf.position() == 0) {
            return;
        }
        int queued = writeBuf.position();
        writeBuf.flip();
        try {
            channel.write(writeBuf);
        } catch (IOException e) {
            writeBuf.clear();
            fail("write failed: " + e.getMessage());
            return;
        }
        writeBuf.compact();
        if (writeBuf.capacity() > INITIAL_WRITE_BUFFER_SIZE) {
            shrinkAfterBurst(queued);
        }
        int ops = writeBuf.position() > 0 ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
        if (key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    // ----------------------------------------------------------------------------------------------------- closing

    @Override
    public void disconnect(String reason) {
        execute(() -> close(reason));
    }

    void close(String reason) {
        if (state == State.CLOSED) {
            return;
        }
        boolean wasActive = state == State.ACTIVE;
        state = State.CLOSED;
        key.cancel();
        try {
            channel.close();
        } catch (IOException e) {
            log.debug("closing {}", remote, e);
        }
        loop.forget(this);
        pending.failAll(new SwitchDisconnectedException("switch " + getStringId() + " disconnected: " + reason));
        if (wasActive) {
            log.info("switch {} ({}) disconnected: {}", getStringId(), remote, reason);
            controller.switchRemoved(this);
        } else {
            log.info("connection from {} closed before the switch became active: {}", remote, reason);
        }
        locals = NO_LOCALS;
        early.clear();
        told.clear(); // a connection kept by someone must not keep the listeners alive
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null && t != t.getCause()) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : t.toString();
    }

    // ------------------------------------------------------------------------------------------------ IOFSwitch

    @Override
    public long getId() {
        var f = features;
        return f == null ? 0 : f.datapathId();
    }

    @Override
    public String getStringId() {
        var f = features;
        if (f == null) {
            return "(unknown, " + remote + ")";
        }
        return Dpids.toString(f.datapathId());
    }

    @Override
    public OFFeaturesReply getFeatures() {
        return features;
    }

    @Override
    public OFDescStatsReply getDescription() {
        return description;
    }

    @Override
    public Collection<OFPhysicalPort> getPorts() {
        return List.copyOf(ports.values());
    }

    @Override
    public OFPhysicalPort getPort(int portNumber) {
        return ports.get(portNumber);
    }

    @Override
    public int nextXid() {
        return xid.getAndIncrement();
    }

    @Override
    public void execute(Runnable task) {
        loop.execute(task);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getLocal(SwitchLocal<T> key) {
        int i = key.index();
        if (i < locals.length && locals[i] != null) {
            return (T) locals[i];
        }
        T value = key.initialValue();
        if (value != null && state != State.CLOSED) {
            setLocal(key, value);
        }
        return value;
    }

    @Override
    public <T> void setLocal(SwitchLocal<T> key, T value) {
        int i = key.index();
        if (i >= locals.length) {
            locals = Arrays.copyOf(locals, Math.max(i + 1, locals.length * 2));
        }
        locals[i] = value;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T removeLocal(SwitchLocal<T> key) {
        int i = key.index();
        if (i >= locals.length) {
            return null;
        }
        var old = (T) locals[i];
        locals[i] = null;
        return old;
    }

    @Override
    public boolean isConnected() {
        return state != State.CLOSED;
    }

    IOLoop loop() {
        return loop;
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return remote;
    }

    @Override
    public Instant getConnectedSince() {
        return connectedSince;
    }

    @Override
    public String getThreadName() {
        return loop.threadName();
    }

    @Override
    public long getMessagesIn() {
        return messagesIn;
    }

    @Override
    public long getMessagesOut() {
        return messagesOut;
    }

    @Override
    public String toString() {
        return "switch " + getStringId();
    }
}
