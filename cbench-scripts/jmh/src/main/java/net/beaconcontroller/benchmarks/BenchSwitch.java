package net.beaconcontroller.benchmarks;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.SwitchLocal;
import net.beaconcontroller.openflow.OFBarrierReply;
import net.beaconcontroller.openflow.OFFeaturesReply;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.statistics.OFDescStatsReply;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * The smallest {@link IOFSwitch} the PACKET_IN path needs, shaped like the controller's connection: {@code write}
 * serializes into a direct output buffer (emptied when full, as a socket write would), {@link SwitchLocal} values
 * live in an array slot by key index, and the old path's local state is a {@code HashMap} as before SwitchLocal.
 */
final class BenchSwitch implements IOFSwitch {
    private final ByteBuffer out = ByteBuffer.allocateDirect(1 << 16);
    private final long id;
    private final List<OFPhysicalPort> ports;
    private Object[] locals = new Object[0];
    /** The per-switch state of the previous platform ({@code sw.getLocal()} returned this map). */
    final Map<Object, Object> oldLocal = new HashMap<>();
    long written;

    BenchSwitch() {
        this(1, List.of());
    }

    /** A switch {@code id} with these ports (the topology probes them, routing's other hops are written to). */
    BenchSwitch(long id, List<OFPhysicalPort> ports) {
        this.id = id;
        this.ports = List.copyOf(ports);
    }

    /** A port that is up, its MAC derived from the switch and port numbers. */
    static OFPhysicalPort port(long dpid, int portNo) {
        return new OFPhysicalPort(portNo, 0x0200_0000_0000L | dpid << 8 | portNo, "port" + portNo, 0, 0, 0, 0, 0, 0);
    }

    @Override
    public void write(OFMessage msg) {
        int n = msg.length();
        if (out.remaining() < n) {
            written += out.position();
            out.clear();
        }
        msg.writeTo(out);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getLocal(SwitchLocal<T> key) {
        int i = key.index();
        if (i < locals.length && locals[i] != null) {
            return (T) locals[i];
        }
        T value = key.initialValue();
        if (value != null) {
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
    public void write(List<? extends OFMessage> msgs) {
        msgs.forEach(this::write);
    }

    @Override
    public long getId() {
        return id;
    }

    @Override
    public String getStringId() {
        return Long.toHexString(id);
    }

    @Override
    public NiciraRole getRole() {
        return NiciraRole.OTHER;
    }

    @Override
    public CompletableFuture<NiciraRole> setRole(NiciraRole role, Duration timeout) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean isConnected() {
        return true;
    }

    @Override
    public void flush() {
    }

    @Override
    public OFFeaturesReply getFeatures() {
        throw new UnsupportedOperationException();
    }

    @Override
    public OFDescStatsReply getDescription() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Collection<OFPhysicalPort> getPorts() {
        return ports;
    }

    @Override
    public OFPhysicalPort getPort(int portNumber) {
        for (var p : ports) {
            if (p.portNo() == portNumber) {
                return p;
            }
        }
        return null;
    }

    @Override
    public int nextXid() {
        return 0;
    }

    @Override
    public CompletableFuture<List<OFStatsReply>> getStatistics(OFStatsRequest request, Duration timeout) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<OFBarrierReply> barrier(Duration timeout) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void execute(Runnable task) {
        task.run();
    }

    @Override
    public void disconnect(String reason) {
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return null;
    }

    @Override
    public Instant getConnectedSince() {
        return Instant.EPOCH;
    }

    @Override
    public String getThreadName() {
        return Thread.currentThread().getName();
    }

    @Override
    public long getMessagesIn() {
        return 0;
    }

    @Override
    public long getMessagesOut() {
        return 0;
    }
}
