package net.beaconcontroller.devicemanager.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import net.beaconcontroller.core.ContextKey;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IScheduler;
import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceListener;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * A device manager outside OSGi: a fake topology (every port an edge port unless made a link end), recording
 * switches, a scheduler whose task the test runs, a clock the test sets, and a listener that records the events.
 */
final class Harness {
    final AtomicLong now = new AtomicLong(1_700_000_000L);
    final Set<SwitchPort> linkPorts = ConcurrentHashMap.newKeySet();
    final Set<SwitchPort> quarantined = ConcurrentHashMap.newKeySet();
    /** Ports of one broadcast domain (bridges Beacon does not manage between them); edge ports too. */
    final Set<SwitchPort> domainPorts = ConcurrentHashMap.newKeySet();
    /** Ports that went down or away. */
    final Set<SwitchPort> gonePorts = ConcurrentHashMap.newKeySet();
    final Map<Long, IOFSwitch> switches = new ConcurrentHashMap<>();
    final Map<Long, List<OFMessage>> written = new ConcurrentHashMap<>();
    final List<String> events = new CopyOnWriteArrayList<>();
    final List<Runnable> scheduled = new CopyOnWriteArrayList<>();
    final DeviceManager dm;

    Harness(String... settings) {
        this(null, settings);
    }

    /** A member of a cluster whose state is {@code shared}. */
    Harness(ISharedState shared, String... settings) {
        for (long dpid = 1; dpid <= 3; dpid++) {
            addSwitch(dpid);
        }
        IScheduler scheduler = proxy(IScheduler.class, (name, args) -> switch (name) {
            case "scheduleAtFixedRate" -> {
                var task = (Runnable) args[0];
                scheduled.add(task);
                yield new Scheduled(() -> scheduled.remove(task));
            }
            default -> throw new UnsupportedOperationException(name);
        });
        dm = new DeviceManager(new FakeTopology(), scheduler,
                Configs.of(DeviceManager.Config.class, settings), now::get, shared);
        dm.addListener(new IDeviceListener() {
            @Override
            public void deviceAdded(Device d) {
                events.add("added " + d.mac() + "@" + d.attachment());
            }

            @Override
            public void deviceMoved(Device before, Device d) {
                events.add("moved " + d.mac() + " " + before.attachment() + "->" + d.attachment());
            }

            @Override
            public void deviceIpChanged(Device before, Device d) {
                events.add("ips " + d.mac() + " " + before.ipv4() + "->" + d.ipv4());
            }

            @Override
            public void deviceRemoved(Device d) {
                events.add("removed " + d.mac());
            }
        });
    }

    IOFSwitch addSwitch(long dpid) {
        var out = new CopyOnWriteArrayList<OFMessage>();
        written.put(dpid, out);
        IOFSwitch sw = proxy(IOFSwitch.class, (name, args) -> switch (name) {
            case "getId" -> dpid;
            case "write" -> out.add((OFMessage) args[0]);
            case "execute" -> {
                ((Runnable) args[0]).run();
                yield null;
            }
            default -> throw new UnsupportedOperationException(name);
        });
        switches.put(dpid, sw);
        return sw;
    }

    /** Runs the aging sweep as the scheduler would. */
    void sweep() {
        scheduled.forEach(Runnable::run);
    }

    void advance(Duration d) {
        now.addAndGet(d.toSeconds());
    }

    Instant instant() {
        return Instant.ofEpochSecond(now.get());
    }

    /** Hands the device manager a PACKET_IN as the controller does; returns the context later listeners see. */
    Context packetIn(long dpid, int inPort, byte[] bytes) {
        return packetIn(new Frame(), dpid, inPort, bytes);
    }

    Context packetIn(Frame frame, long dpid, int inPort, byte[] bytes) {
        var pi = new OFPacketIn(0, OFMessage.NO_BUFFER, bytes.length, inPort, OFPacketIn.Reason.NO_MATCH,
                ByteBuffer.wrap(bytes));
        var ctx = new Context(frame.wrap(pi.frame()));
        dm.receive(switches.get(dpid), pi, ctx);
        return ctx;
    }

    void link(long srcDpid, int srcPort, long dstDpid, int dstPort) {
        var link = Link.of(srcDpid, srcPort, dstDpid, dstPort);
        linkPorts.add(link.src());
        linkPorts.add(link.dst());
        dm.linkAdded(link);
    }

    /** A periodic task of the fake scheduler: cancelling it takes it off the list. */
    private record Scheduled(Runnable onCancel) implements ScheduledFuture<Object> {
        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            onCancel.run();
            return true;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return 0;
        }

        @Override
        public int compareTo(Delayed o) {
            return 0;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean isDone() {
            return false;
        }

        @Override
        public Object get() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Object get(long timeout, TimeUnit unit) {
            throw new UnsupportedOperationException();
        }
    }

    /** A message context backed by a map. */
    static final class Context implements MessageContext {
        private final Frame frame;
        private final Map<ContextKey<?>, Object> values = new HashMap<>();

        Context(Frame frame) {
            this.frame = frame;
        }

        @Override
        public Frame frame() {
            return frame;
        }

        @Override
        public <T> T get(ContextKey<T> key) {
            @SuppressWarnings("unchecked")
            T value = (T) values.get(key);
            return value;
        }

        @Override
        public <T> void put(ContextKey<T> key, T value) {
            values.put(key, value);
        }
    }

    private final class FakeTopology implements ITopology {
        @Override
        public Map<Link, Instant> getLinks() {
            return Map.of();
        }

        @Override
        public boolean isEdgePort(long dpid, int port) {
            var at = new SwitchPort(dpid, port);
            return !linkPorts.contains(at) && !gonePorts.contains(at);
        }

        @Override
        public boolean isQuarantined(SwitchPort port) {
            return quarantined.contains(port);
        }

        @Override
        public boolean isBroadcastDomainPort(long dpid, int port) {
            return domainPorts.contains(new SwitchPort(dpid, port));
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

    interface Handler {
        Object handle(String method, Object[] args);
    }

    static <T> T proxy(Class<T> type, Handler handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (p, m, args) -> switch (m.getName()) {
                    case "equals" -> p == args[0];
                    case "hashCode" -> System.identityHashCode(p);
                    case "toString" -> type.getSimpleName();
                    default -> m.isDefault() ? InvocationHandler.invokeDefault(p, m, args)
                            : handler.handle(m.getName(), args);
                }));
    }

    static List<String> macs(java.util.Collection<Device> devices) {
        var out = new ArrayList<String>();
        devices.forEach(d -> out.add(Long.toString(d.mac())));
        out.sort(null);
        return out;
    }
}
