package net.beaconcontroller.benchmarks;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import net.beaconcontroller.core.ContextKey;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IScheduler;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.devicemanager.internal.DeviceManager;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.Link;

/**
 * A device manager outside OSGi that has learned {@code n} hosts, as the controller would have fed it: host {@code i}
 * has MAC {@code 02:00:00:00:00:00 + i}, address {@code 10.0.0.0 + i} and sits on switch {@code 1 + i % 1000}, port
 * {@code 1 + (i / 1000) % 48}; every port is an edge port.
 */
final class DeviceManagerFixture {
    static final long BASE_MAC = 0x0200_0000_0000L;
    static final int BASE_IP = 0x0a00_0000;
    static final int SWITCHES = 1000;
    static final int PORTS = 48;

    final DeviceManager dm;
    final Frame frame = new Frame();
    final Context ctx = new Context();
    private final BenchSwitch[] switches = new BenchSwitch[SWITCHES];

    DeviceManagerFixture(int n) {
        for (int s = 0; s < SWITCHES; s++) {
            switches[s] = new BenchSwitch(s + 1, List.of());
        }
        IScheduler scheduler = proxy(IScheduler.class, (m, args) -> null);
        dm = new DeviceManager(new AllEdge(), scheduler, null, defaults(DeviceManager.Config.class));
        for (int i = 0; i < n; i++) {
            receive(dispatch(i, (i + 1) % n));
        }
    }

    static long mac(int host) {
        return BASE_MAC + host;
    }

    static int ip(int host) {
        return BASE_IP + host;
    }

    /** A PACKET_IN of an IPv4/UDP frame from {@code host} to {@code to}, on the host's port. */
    static OFPacketIn packetIn(int host, int to) {
        var f = ByteBuffer.allocate(60);
        f.putShort((short) (mac(to) >>> 32)).putInt((int) mac(to)).putShort((short) (mac(host) >>> 32))
                .putInt((int) mac(host)).putShort((short) 0x0800);
        f.put((byte) 0x45).put((byte) 0).putShort((short) 46).putInt(0).put((byte) 64).put((byte) 17)
                .putShort((short) 0).putInt(ip(host)).putInt(ip(to));
        f.putShort((short) 1234).putShort((short) 5678).putShort((short) 26).putShort((short) 0);
        f.clear();
        return new OFPacketIn(0, 0x100, 60, port(host), OFPacketIn.Reason.NO_MATCH, f);
    }

    static long dpid(int host) {
        return 1 + host % SWITCHES;
    }

    static int port(int host) {
        return 1 + (host / SWITCHES) % PORTS;
    }

    /** A PACKET_IN ready to dispatch: the frame buffer the controller would wrap, and the switch it came from. */
    record Dispatch(OFPacketIn pi, ByteBuffer frame, IOFSwitch sw) {
    }

    Dispatch dispatch(int host, int to) {
        var pi = packetIn(host, to);
        return new Dispatch(pi, pi.frame(), switches[(int) dpid(host) - 1]);
    }

    /** As the controller dispatches: the frame wrapped once, a cleared context, then the listener. */
    Object receive(Dispatch d) {
        frame.wrap(d.frame());
        ctx.clear();
        dm.receive(d.sw(), d.pi(), ctx);
        return ctx;
    }

    /** The controller's context: slots by key index. */
    final class Context implements MessageContext {
        private final Object[] slots = new Object[64];

        void clear() {
            java.util.Arrays.fill(slots, null);
        }

        @Override
        public Frame frame() {
            return frame;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T get(ContextKey<T> key) {
            return (T) slots[key.index()];
        }

        @Override
        public <T> void put(ContextKey<T> key, T value) {
            slots[key.index()] = value;
        }
    }

    /** No links: every port is an edge port (a class, not a proxy, so that asking allocates nothing). */
    private static final class AllEdge implements ITopology {
        @Override
        public Map<Link, Instant> getLinks() {
            return Map.of();
        }

        @Override
        public boolean isEdgePort(long dpid, int port) {
            return true;
        }

        @Override
        public Set<Set<Long>> getIslands() {
            return Set.of();
        }

        @Override
        public Set<Integer> getBroadcastPorts(long dpid) {
            return Set.of();
        }

        @Override
        public boolean isSettled() {
            return true;
        }
    }

    private interface Handler {
        Object handle(String method, Object[] args);
    }

    private static <T> T proxy(Class<T> type, Handler handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (p, m, args) -> handler.handle(m.getName(), args)));
    }

    /** An annotation instance whose methods return their defaults: the settings as shipped. */
    static <A> A defaults(Class<A> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (p, m, args) -> m.getName().equals("annotationType") ? type : m.getDefaultValue()));
    }
}
