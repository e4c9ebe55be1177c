package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.SwitchDisconnectedException;
import net.beaconcontroller.core.SwitchLocal;
import net.beaconcontroller.openflow.OFBarrierReply;
import net.beaconcontroller.openflow.OFBarrierRequest;
import net.beaconcontroller.openflow.OFEchoReply;
import net.beaconcontroller.openflow.OFEchoRequest;
import net.beaconcontroller.openflow.OFFeaturesReply;
import net.beaconcontroller.openflow.OFHello;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.statistics.OFDescStatsReply;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * One switch connection: the switch as applications see it ({@link IOFSwitch}), and the routing of each message it
 * sends to the handshake, the request waiting for it or the listeners. Its parts: {@link Transport} (the bytes on the
 * network), {@link Inbound} (reading and parsing), {@link OutputBuffer} (batched writes), {@link Handshake},
 * {@link RoleChannel}, {@link Keepalive}, {@link RequestTracker}, {@link DatapathInfo}, {@link SwitchSlots} and
 * {@link ReconciliationGate}. Everything runs on the owning {@link IOLoop}'s thread except the {@link IOFSwitch}
 * methods documented as callable from any thread, which hand their work to the loop.
 */
final class SwitchConnection implements IOFSwitch {
    private static final Logger log = LoggerFactory.getLogger(SwitchConnection.class);

    private enum State { HANDSHAKE, ACTIVE, CLOSED }

    private final Controller controller;
    private final IOLoop loop;
    private final Transport transport;
    private final SelectionKey key;
    private final InetSocketAddress remote;
    private final Instant connectedSince = Instant.now();
    private final Inbound in;
    private final OutputBuffer out;
    private final Keepalive keepalive;
    private final Handshake handshake;
    private final RoleChannel roles;
    private final ReconciliationGate reconciliation = new ReconciliationGate(this);
    private final RequestTracker requests = new RequestTracker(this);
    private final SwitchSlots slots = new SwitchSlots();
    // Written only by the loop thread; volatile because isConnected() may be polled from any thread.
    private volatile State state = State.HANDSHAKE;
    private final AtomicInteger xid = new AtomicInteger(1);
    /**
     * The switch listeners told {@code addedSwitch} of this connection, so each hears it once and hears
     * {@code removedSwitch} only after it, whether it was registered before the switch became active or after. Loop
     * thread.
     */
    private final Set<IOFSwitchListener> told = Collections.newSetFromMap(new IdentityHashMap<>());
    private final DatapathInfo info;

    SwitchConnection(Controller controller, IOLoop loop, SocketChannel channel, Transport transport, SelectionKey key)
            throws IOException {
        this.controller = controller;
        this.loop = loop;
        this.transport = transport;
        this.key = key;
        this.remote = (InetSocketAddress) channel.getRemoteAddress();
        this.info = new DatapathInfo(remote);
        // Read once per connection: a changed setting applies to the switches that connect afterwards.
        var config = controller.config();
        this.in = new Inbound(this, controller, loop, requests);
        this.out = new OutputBuffer(this, transport, key, loop, config.outputBufferLimit(), config.immediate());
        this.keepalive = new Keepalive(loop.now, config.echoInterval(), config.echoTimeout());
        this.handshake = new Handshake(this, controller, config.preExistingFlows(), keepalive.handshakeDeadline(),
                SwitchIdentity.probeWindow(config.echoTimeout()));
        this.roles = new RoleChannel(this, controller, keepalive.timeoutNanos());
        channel.socket().setTcpNoDelay(config.noDelay());
    }

    /** Opens the handshake: HELLO goes out at once, the rest follows the switch's HELLO. */
    void start() {
        log.debug("connection from {} on {}", remote, loop.threadName());
        write(new OFHello(nextXid()));
        flushNow();
    }

    // ---------------------------------------------------------------------------------------------------- reading

    void handleRead() {
        in.read(transport, keepalive);
    }

    // ------------------------------------------------------------------------------------------------ handshake

    DatapathInfo info() {
        return info;
    }

    Handshake handshake() {
        return handshake;
    }

    boolean isHandshaking() {
        return state == State.HANDSHAKE;
    }

    boolean isActive() {
        return state == State.ACTIVE;
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
        handshake.reportDropped();
        controller.switchAdded(this);
        handshake.replayEarly(in::dispatch);
        if (state == State.ACTIVE && roles.role() != NiciraRole.SLAVE) {
            controller.reconcileFlows(this);
        }
    }

    // -------------------------------------------------------------------------------------------- requests, replies

    @Override
    public CompletableFuture<List<OFStatsReply>> getStatistics(OFStatsRequest request, Duration timeout) {
        return requests.fromAnyThread(() -> requests.statistics(
                new OFStatsRequest(nextXid(), request.flags(), request.body()), loop.now + RequestTracker.nanos(timeout)));
    }

    @Override
    public CompletableFuture<OFBarrierReply> barrier(Duration timeout) {
        var result = requests.fromAnyThread(() -> requests.send(new OFBarrierRequest(nextXid()), OFBarrierReply.class,
                loop.now + RequestTracker.nanos(timeout)));
        return roles.orderedThroughMaster(result, timeout);
    }

    @Override
    public NiciraRole getRole() {
        return roles.role();
    }

    @Override
    public CompletableFuture<NiciraRole> setRole(NiciraRole wanted, Duration timeout) {
        return requests.fromAnyThread(() -> roles.request(wanted, loop.now + RequestTracker.nanos(timeout)));
    }

    /** Why this connection may not claim {@code dpid}, as its transport proves who the peer is; empty if it may. */
    Optional<String> claimRefusal(long dpid) {
        return transport.claimRefusal(dpid);
    }

    SwitchDisconnectedException disconnected() {
        return new SwitchDisconnectedException("switch " + getStringId() + " disconnected");
    }

    RequestTracker requests() {
        return requests;
    }

    /**
     * Whether the switch at the other end is alive: true as soon as anything arrives from it within {@code window}
     * (an echo request asks for it), false otherwise or when the connection closes first. Probes asked for while one
     * runs share it. Any thread; completes on this connection's I/O thread.
     */
    CompletableFuture<Boolean> probeAlive(Duration window) {
        var result = new CompletableFuture<Boolean>();
        execute(() -> {
            if (!isConnected()) {
                result.complete(false);
                return;
            }
            var running = keepalive.probe();
            if (running == null) {
                long windowNanos = RequestTracker.nanos(window);
                running = keepalive.startProbe(loop.now, windowNanos);
                // Any message ends the probe, this echo's reply or error as much as another; the request is made only
                // so that neither reaches the listeners, and its outcome is not needed.
                requests.send(new OFEchoRequest(nextXid()), OFEchoReply.class, loop.now + windowNanos);
                flushNow();
            }
            RequestTracker.relay(running, result);
        });
        return result;
    }

    RoleChannel roles() {
        return roles;
    }

    ReconciliationGate reconciliation() {
        return reconciliation;
    }

    // ------------------------------------------------------------------------------------------------------ timers

    void checkTimers(long now) {
        if (state == State.CLOSED) {
            return;
        }
        switch (keepalive.check(now, state == State.HANDSHAKE)) {
            case HANDSHAKE_TOO_LONG -> {
                close("handshake not completed within " + keepalive.timeoutSeconds() + " s (waiting for "
                        + handshake.awaited() + ")");
                return;
            }
            case SILENT_TOO_LONG -> {
                close("no message for " + keepalive.idleSeconds(now) + " s");
                return;
            }
            case ECHO -> write(new OFEchoRequest(nextXid()));
            case NOTHING -> { }
        }
        requests.expire(now, getStringId());
    }

    // ----------------------------------------------------------------------------------------------------- writing

    @Override
    public void write(OFMessage msg) {
        if (roles.writesThroughMaster(msg)) {
            roles.writeThroughMaster(msg);
            return;
        }
        if (loop.inLoop()) {
            reconciliation.written(msg);
            out.put(msg);
        } else {
            // Serialized here, not later on the loop: the message may hold a view of the caller's read buffer (a
            // PACKET_IN frame), valid only while the caller handles that message.
            var bytes = msg.toByteArray();
            var installs = FlowKey.installedBy(msg);
            loop.execute(() -> {
                reconciliation.written(installs);
                out.put(bytes);
            });
        }
    }

    @Override
    public void write(List<? extends OFMessage> msgs) {
        msgs.forEach(this::write);
    }

    OutputBuffer output() {
        return out;
    }

    Inbound input() {
        return in;
    }

    Transport transport() {
        return transport;
    }

    /** The next transaction id; used by {@link HandOver} to carry it from one core to the next. */
    void continueXids(int next) {
        xid.set(next);
    }

    @Override
    public void flush() {
        execute(this::flushNow);
    }

    /** Writes as much as the socket takes; what is left waits for OP_WRITE. */
    void flushNow() {
        out.flush();
    }

    // ----------------------------------------------------------------------------------------------------- closing

    @Override
    public void disconnect(String reason) {
        execute(() -> close(reason));
    }

    void close(String reason) {
        close(reason, false);
    }

    /** Ends this connection; with {@code keepSocket} the socket stays open for the next core ({@link HandOver}). */
    void close(String reason, boolean keepSocket) {
        if (state == State.CLOSED) {
            return;
        }
        boolean wasActive = state == State.ACTIVE;
        state = State.CLOSED;
        out.close();
        key.cancel();
        try {
            if (!keepSocket) {
                transport.close();
            }
        } catch (IOException e) {
            log.debug("closing {}", remote, e);
        }
        loop.forget(this);
        keepalive.stop();
        requests.failAll(new SwitchDisconnectedException("switch " + getStringId() + " disconnected: " + reason));
        if (wasActive) {
            log.info("switch {} ({}) disconnected: {}", getStringId(), remote, reason);
            controller.switchRemoved(this);
        } else {
            log.info("connection from {} closed before the switch became active: {}", remote, reason);
        }
        // Only after removedSwitch: a connection waiting for the DPID must not be added before this one is removed.
        controller.identity().release(this);
        slots.clear();
        handshake.forgetEarly();
        told.clear(); // a connection kept by someone must not keep the listeners alive
    }

    // ------------------------------------------------------------------------------------------------ IOFSwitch

    @Override
    public long getId() {
        return info.id();
    }

    @Override
    public String getStringId() {
        return info.stringId();
    }

    @Override
    public OFFeaturesReply getFeatures() {
        return info.features();
    }

    @Override
    public OFDescStatsReply getDescription() {
        return info.description();
    }

    @Override
    public Collection<OFPhysicalPort> getPorts() {
        return info.ports();
    }

    @Override
    public OFPhysicalPort getPort(int portNumber) {
        return info.port(portNumber);
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
    public <T> T getLocal(SwitchLocal<T> key) {
        return slots.get(key, state != State.CLOSED);
    }

    @Override
    public <T> void setLocal(SwitchLocal<T> key, T value) {
        slots.set(key, value);
    }

    @Override
    public <T> T removeLocal(SwitchLocal<T> key) {
        return slots.remove(key);
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
        return in.messages();
    }

    @Override
    public long getMessagesOut() {
        return out.messages();
    }

    @Override
    public String toString() {
        return "switch " + getStringId();
    }
}
