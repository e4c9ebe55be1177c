package net.beaconcontroller.cbench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

import net.beaconcontroller.cbench.RoleMessages.Role;

/**
 * One emulated switch connected to every member of a cluster, following Open vSwitch's rules for the Nicira role
 * extension on OpenFlow 1.0 (the cluster bundle's test RoleSwitch follows the same): asynchronous messages
 * (PACKET_IN, FLOW_REMOVED) go to every MASTER and OTHER connection and to no SLAVE, in one order on all of them; a
 * SLAVE's FLOW_MOD or PACKET_OUT is refused with EPERM; a MASTER request demotes the other master to SLAVE.
 *
 * <p>One lock orders everything the switch does, across connections, like the single datapath of a real switch: the
 * migration protocol relies on the marker's FLOW_REMOVED falling at the same point of each connection's stream.
 */
final class SharedSwitch implements AutoCloseable {
    /** A role request as it reached the switch: the migration phases, seen from the switch. */
    record RoleEvent(long nanos, long dpid, int connection, Role role) {
    }

    final long dpid;
    private final List<ControllerConnection> connections = new ArrayList<>();
    private final Object lock = new Object();
    private final ResponseLog log;
    private final byte[] packetIn;
    private final Map<Long, byte[]> removable = new HashMap<>();
    private final Consumer<RoleEvent> roleEvents;
    private final AtomicLong refused = new AtomicLong();
    private int configFlags;
    private int missSendLen = OpenFlow10.DEFAULT_MISS_SEND_LEN;
    private volatile String failure;

    SharedSwitch(long dpid, List<InetSocketAddress> controllers, Consumer<RoleEvent> roleEvents) throws IOException {
        this.dpid = dpid;
        this.log = new ResponseLog(dpid);
        this.packetIn = RoleMessages.numberedPacketIn(dpid);
        this.roleEvents = roleEvents;
        try {
            for (var address : controllers) {
                connections.add(new ControllerConnection(connections.size(), address));
            }
        } catch (IOException e) {
            close();
            throw new IOException("switch " + dpid + " cannot connect to " + controllers.get(connections.size())
                    + ": " + e.getMessage(), e);
        }
    }

    /** Sends HELLO on every connection and starts one reader thread per connection. */
    void start() throws IOException {
        for (var c : connections) {
            c.send(OpenFlow10.headerOnly(OpenFlow10.HELLO, 1));
            var reader = new Thread(() -> readLoop(c), "switch-" + dpid + "-conn-" + c.index);
            reader.setDaemon(true);
            reader.start();
        }
    }

    /** Sends the next numbered PACKET_IN to every connection that is not SLAVE. */
    void sendPacketIn() {
        synchronized (lock) {
            int targets = 0;
            for (var c : connections) {
                if (c.role != Role.SLAVE) {
                    targets++;
                }
            }
            int n = log.send(System.nanoTime(), targets);
            RoleMessages.number(packetIn, n);
            for (var c : connections) {
                if (c.role != Role.SLAVE) {
                    sendOrFail(c, packetIn);
                }
            }
        }
    }

    /** The index of the MASTER connection, or -1; with {@code settled}, -1 also while any connection is OTHER. */
    int master(boolean settled) {
        synchronized (lock) {
            int master = -1;
            for (var c : connections) {
                if (c.role == Role.MASTER) {
                    master = c.index;
                } else if (settled && c.role == Role.OTHER) {
                    return -1;
                }
            }
            return master;
        }
    }

    /** Why a connection ended, or null while all are up. */
    String failure() {
        return failure;
    }

    long refused() {
        return refused.get();
    }

    /** Reads the log under the switch's lock (after the load has stopped, for the results). */
    <T> T withLog(Function<ResponseLog, T> reader) {
        synchronized (lock) {
            return reader.apply(log);
        }
    }

    private void readLoop(ControllerConnection c) {
        try {
            while (true) {
                handle(c, c.read());
            }
        } catch (IOException | UncheckedIOException e) {
            if (failure == null) {
                failure = "connection " + c.index + " of switch " + dpid + " ended: " + e.getMessage();
            }
        }
    }

    private void handle(ControllerConnection c, byte[] m) throws IOException {
        int xid = ByteBuffer.wrap(m).getInt(OpenFlow10.XID_OFFSET);
        synchronized (lock) {
            switch (m[1]) {
                case OpenFlow10.ECHO_REQUEST -> {
                    var reply = m.clone();
                    reply[1] = OpenFlow10.ECHO_REPLY;
                    c.send(reply);
                }
                case OpenFlow10.FEATURES_REQUEST -> c.send(OpenFlow10.featuresReply(dpid, xid));
                case OpenFlow10.GET_CONFIG_REQUEST -> c.send(OpenFlow10.getConfigReply(xid, configFlags, missSendLen));
                case OpenFlow10.SET_CONFIG -> {
                    if (m.length >= 12) {
                        configFlags = ((m[8] & 0xff) << 8) | (m[9] & 0xff);
                        missSendLen = ((m[10] & 0xff) << 8) | (m[11] & 0xff);
                    }
                }
                case OpenFlow10.STATS_REQUEST -> {
                    if (m.length >= 12 && m[8] == 0 && m[9] == OpenFlow10.STATS_DESC) {
                        c.send(OpenFlow10.descStatsReply(xid));
                    }
                }
                case OpenFlow10.BARRIER_REQUEST -> c.send(OpenFlow10.headerOnly(OpenFlow10.BARRIER_REPLY, xid));
                case OpenFlow10.VENDOR -> role(c, m, xid);
                case OpenFlow10.FLOW_MOD -> flowMod(c, m);
                case OpenFlow10.PACKET_OUT -> packetOut(c, m);
                default -> { } // HELLO, ERROR and the rest need no answer from this switch
            }
        }
    }

    private void role(ControllerConnection c, byte[] m, int xid) throws IOException {
        var role = RoleMessages.roleRequested(m);
        if (role == null) {
            c.send(RoleMessages.badVendor(m));
            return;
        }
        if (role == Role.MASTER) {
            for (var other : connections) {
                if (other.role == Role.MASTER) {
                    other.role = Role.SLAVE;
                }
            }
        }
        c.role = role;
        roleEvents.accept(new RoleEvent(System.nanoTime(), dpid, c.index, role));
        c.send(RoleMessages.roleReply(xid, role));
    }

    private void flowMod(ControllerConnection c, byte[] m) throws IOException {
        if (refusedFrom(c, m) || m.length < 72) {
            return;
        }
        var b = ByteBuffer.wrap(m);
        long cookie = b.getLong(RoleMessages.FLOW_MOD_COOKIE_OFFSET);
        int command = b.getShort(OpenFlow10.FLOW_MOD_COMMAND_OFFSET);
        if (command == OpenFlow10.FLOW_MOD_ADD
                && (b.getShort(RoleMessages.FLOW_MOD_FLAGS_OFFSET) & RoleMessages.FLOW_MOD_FLAG_SEND_FLOW_REM) != 0) {
            removable.put(cookie, m);
        } else if (command == OpenFlow10.FLOW_MOD_DELETE_STRICT && removable.containsKey(cookie)) {
            // As RoleSwitch: the flow is found by its cookie (the migration marker's is unique).
            var removed = RoleMessages.flowRemoved(removable.remove(cookie));
            for (var other : connections) {
                if (other.role != Role.SLAVE) {
                    other.send(removed);
                }
            }
        }
        answered(c, m);
    }

    private void packetOut(ControllerConnection c, byte[] m) throws IOException {
        if (!refusedFrom(c, m)) {
            answered(c, m);
        }
    }

    private void answered(ControllerConnection c, byte[] m) {
        long number = RoleMessages.answered(m);
        if (number >= 0) {
            log.answer(number, System.nanoTime(), c.index);
        }
    }

    private boolean refusedFrom(ControllerConnection c, byte[] m) throws IOException {
        if (c.role != Role.SLAVE) {
            return false;
        }
        refused.incrementAndGet();
        c.send(RoleMessages.permissionError(m));
        return true;
    }

    private void sendOrFail(ControllerConnection c, byte[] m) {
        try {
            c.send(m);
        } catch (IOException e) {
            throw new UncheckedIOException("switch " + dpid + ", connection " + c.index, e);
        }
    }

    @Override
    public void close() {
        for (var c : connections) {
            try {
                c.close();
            } catch (IOException e) {
                System.err.println("switch " + dpid + ": closing connection " + c.index + ": " + e.getMessage());
            }
        }
    }
}
