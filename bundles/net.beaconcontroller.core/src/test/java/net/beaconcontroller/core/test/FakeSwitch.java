package net.beaconcontroller.core.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

import net.beaconcontroller.openflow.NiciraRoleReply;
import net.beaconcontroller.openflow.NiciraRoleRequest;
import net.beaconcontroller.openflow.OFBarrierReply;
import net.beaconcontroller.openflow.OFData;
import net.beaconcontroller.openflow.OFEchoReply;
import net.beaconcontroller.openflow.OFEchoRequest;
import net.beaconcontroller.openflow.OFFeaturesReply;
import net.beaconcontroller.openflow.OFHello;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFMessageReader;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFDescStatsReply;
import net.beaconcontroller.openflow.statistics.OFDescStatsRequest;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.openflow.statistics.OFFlowStatsReply;
import net.beaconcontroller.openflow.statistics.OFFlowStatsRequest;

/**
 * A scripted OpenFlow 1.0 switch for tests: a real blocking socket on loopback and a reader thread that parses what
 * the controller sends with the OpenFlow library, records every message and answers the handshake requests
 * (FEATURES_REQUEST, the description STATS_REQUEST, BARRIER_REQUEST, ECHO_REQUEST). Any answer can be replaced or
 * switched off with {@link #answer}; {@link #expect} waits, with a deadline, for what the controller sent.
 *
 * <p>Every wait here blocks on the reader's progress with a deadline; nothing sleeps to synchronise.
 */
public final class FakeSwitch implements AutoCloseable {
    /** The description this switch reports. */
    public static final OFDescStatsReply DESCRIPTION = new OFDescStatsReply("Beacon test suite", "FakeSwitch", "scripted",
            "0042", "fake datapath");
    public static final long N_BUFFERS = 256;
    public static final long CAPABILITIES = OFFeaturesReply.CAP_FLOW_STATS | OFFeaturesReply.CAP_TABLE_STATS
            | OFFeaturesReply.CAP_PORT_STATS | OFFeaturesReply.CAP_ARP_MATCH_IP;
    public static final long ACTIONS = 0xfff;

    /** A message the controller sent, when it arrived, and whether {@link #expect} has handed it out yet. */
    public static final class Received {
        public final OFMessage msg;
        public final long nanos;
        boolean taken;

        Received(OFMessage msg, long nanos) {
            this.msg = msg;
            this.nanos = nanos;
        }
    }

    private final long dpid;
    private final List<OFPhysicalPort> ports;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Thread reader;
    private final Object lock = new Object();
    private final List<Received> received = new ArrayList<>();
    private final Map<OFType, Function<OFMessage, byte[]>> answers = new EnumMap<>(OFType.class);
    private int xid = 0x7000_0000;
    // Guarded by lock.
    private boolean paused;
    private boolean closed;
    private String closeCause;
    private Throwable readerFailure;
    private volatile boolean closing;
    /** What the switch answers a flow table request with (reconciliation reads it): empty unless a test sets it. */
    private volatile List<OFFlowStatsEntry> flowTable = List.of();

    private static Socket open(int port, int receiveBuffer) throws IOException {
        var socket = new Socket();
        if (receiveBuffer > 0) {
            // Set before connecting so that the window the controller sees is small from the start.
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        socket.setTcpNoDelay(true);
        return socket;
    }

    private FakeSwitch(Socket socket, long dpid, List<OFPhysicalPort> ports) throws IOException {
        this.dpid = dpid;
        this.ports = List.copyOf(ports);
        this.socket = socket;
        in = socket.getInputStream();
        out = socket.getOutputStream();
        answers.put(OFType.FEATURES_REQUEST, m -> features(m.xid()).toByteArray());
        answers.put(OFType.STATS_REQUEST, m -> {
            var body = ((OFStatsRequest) m).body();
            if (body instanceof OFDescStatsRequest) {
                return new OFStatsReply(m.xid(), 0, DESCRIPTION).toByteArray();
            }
            return body instanceof OFFlowStatsRequest
                    ? new OFStatsReply(m.xid(), 0, new OFFlowStatsReply(flowTable)).toByteArray() : null;
        });
        answers.put(OFType.BARRIER_REQUEST, m -> new OFBarrierReply(m.xid()).toByteArray());
        answers.put(OFType.ECHO_REQUEST, m -> new OFEchoReply(m.xid(), ((OFEchoRequest) m).data()).toByteArray());
        reader = new Thread(this::readLoop, "fake-switch-" + Long.toHexString(dpid));
        reader.setDaemon(true);
        reader.start();
    }

    /** Connects to the controller on loopback; nothing is sent yet (see {@link #hello()}). */
    public static FakeSwitch connect(int port, long dpid, List<OFPhysicalPort> ports) {
        return connect(port, dpid, ports, 0);
    }

    /** As {@link #connect(int, long, List)} with a small socket receive buffer, for slow-reader tests. */
    public static FakeSwitch connect(int port, long dpid, List<OFPhysicalPort> ports, int receiveBuffer) {
        try {
            return new FakeSwitch(open(port, receiveBuffer), dpid, ports);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot connect to the controller on port " + port, e);
        }
    }

    /**
     * A fake switch speaking over a socket the test connected, e.g. a TLS socket whose handshake is under way or done;
     * nothing is sent yet (see {@link #hello()}).
     */
    public static FakeSwitch over(Socket connected, long dpid, List<OFPhysicalPort> ports) {
        try {
            return new FakeSwitch(connected, dpid, ports);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use the socket " + connected, e);
        }
    }

    /** This switch's end of the connection, as the controller sees it as the remote address. */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    public long dpid() {
        return dpid;
    }

    public List<OFPhysicalPort> ports() {
        return ports;
    }

    /** The FEATURES_REPLY this switch answers with. */
    public OFFeaturesReply features(int xid) {
        return new OFFeaturesReply(xid, dpid, N_BUFFERS, 1, CAPABILITIES, ACTIONS, ports);
    }

    /** Grants every Nicira role request the role it asks for. */
    public FakeSwitch answeringRoles() {
        return answer(OFType.VENDOR, m -> new NiciraRoleReply(m.xid(), ((NiciraRoleRequest) m).role()).toByteArray());
    }

    /**
     * Replaces the automatic answer to requests of {@code type}: {@code answer} gets the request and returns the bytes
     * to send back, or {@code null} to stay silent. {@code answer(type, null)} switches answering off.
     */
    public FakeSwitch answer(OFType type, Function<OFMessage, byte[]> answer) {
        synchronized (answers) {
            if (answer == null) {
                answers.remove(type);
            } else {
                answers.put(type, answer);
            }
        }
        return this;
    }

    /** The flows this switch reports when asked for its flow table (one reply, all tables). */
    public FakeSwitch flowTable(List<OFFlowStatsEntry> flows) {
        flowTable = List.copyOf(flows);
        return this;
    }

    public synchronized int nextXid() {
        return xid++;
    }

    // ------------------------------------------------------------------------------------------------- sending

    /** An OpenFlow 1.0 HELLO without body. */
    public FakeSwitch hello() {
        return send(new OFHello(nextXid()));
    }

    /** A HELLO of any version with any body (e.g. an OpenFlow 1.3 version bitmap). */
    public FakeSwitch hello(int version, byte[] body) {
        return send(new OFHello(nextXid(), version, OFData.of(body)));
    }

    /** Sends the messages in one write. */
    public FakeSwitch send(OFMessage... msgs) {
        int n = 0;
        for (var m : msgs) {
            n += m.length();
        }
        var buf = ByteBuffer.allocate(n);
        for (var m : msgs) {
            m.writeTo(buf);
        }
        return sendBytes(buf.array());
    }

    public FakeSwitch sendBytes(byte[] bytes) {
        try {
            synchronized (out) {
                out.write(bytes);
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("fake switch " + Long.toHexString(dpid) + " cannot send", e);
        }
        return this;
    }

    /** A PACKET_IN (not buffered, table miss) carrying {@code frame}. */
    public OFPacketIn packetIn(int inPort, byte[] frame) {
        return new OFPacketIn(nextXid(), OFMessage.NO_BUFFER, frame.length, inPort, OFPacketIn.Reason.NO_MATCH,
                ByteBuffer.wrap(frame));
    }

    /** An Ethernet frame of {@code length} bytes whose content depends on {@code seed}. */
    public static byte[] frame(int length, int seed) {
        var b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed * 31 + i * 7);
        }
        // Unicast destination and source MACs, IPv4 ethertype: a plausible frame for any listener.
        b[0] = 0x02;
        b[6] = 0x02;
        b[12] = 0x08;
        b[13] = 0x00;
        return b;
    }

    public static OFPhysicalPort port(int number, String name) {
        return new OFPhysicalPort(number, 0x0200_0000_0000L | number, name, 0, 0,
                OFPhysicalPort.FEATURE_1GB_FD | OFPhysicalPort.FEATURE_COPPER, 0, 0, 0);
    }

    // ------------------------------------------------------------------------------------------------- reading

    /** Stops reading from the socket (after the read in progress): the controller's output piles up. */
    public void stopReading() {
        synchronized (lock) {
            paused = true;
        }
    }

    public void resumeReading() {
        synchronized (lock) {
            paused = false;
            lock.notifyAll();
        }
    }

    private void readLoop() {
        var buf = ByteBuffer.allocate(256 * 1024);
        try {
            while (true) {
                synchronized (lock) {
                    while (paused && !closing) {
                        lock.wait();
                    }
                }
                if (closing) {
                    return;
                }
                int n = in.read(buf.array(), buf.position(), buf.remaining());
                if (n < 0) {
                    markClosed("end of stream", null);
                    return;
                }
                long now = System.nanoTime();
                buf.position(buf.position() + n);
                buf.flip();
                while (true) {
                    int start = buf.position();
                    if (OFMessageReader.read(buf) == null) {
                        break;
                    }
                    // Re-read from a copy: views into buf (a PACKET_OUT's data) must outlive the next read.
                    var bytes = new byte[buf.position() - start];
                    buf.get(start, bytes);
                    var msg = OFMessageReader.read(ByteBuffer.wrap(bytes));
                    synchronized (lock) {
                        received.add(new Received(msg, now));
                        lock.notifyAll();
                    }
                    autoAnswer(msg);
                }
                buf.compact();
            }
        } catch (SocketException e) {
            markClosed(closing ? "closed by the test" : "reset: " + e.getMessage(), null);
        } catch (IOException | InterruptedException e) {
            markClosed(e.toString(), null);
        } catch (OFParseException | RuntimeException e) {
            markClosed("the controller sent bytes the fake switch cannot parse: " + e, e);
            closeSocket();
        }
    }

    private void autoAnswer(OFMessage msg) {
        Function<OFMessage, byte[]> answer;
        synchronized (answers) {
            answer = answers.get(msg.type());
        }
        if (answer == null) {
            return;
        }
        var bytes = answer.apply(msg);
        if (bytes != null) {
            try {
                sendBytes(bytes);
            } catch (UncheckedIOException e) {
                // The controller closed the connection while we answered: the reader sees the close next.
            }
        }
    }

    private void markClosed(String cause, Throwable failure) {
        synchronized (lock) {
            if (!closed) {
                closed = true;
                closeCause = cause;
                readerFailure = failure;
            }
            lock.notifyAll();
        }
    }

    // ------------------------------------------------------------------------------------------------ waiting

    /** The next message of {@code type} that no earlier {@code expect} returned, waiting for it up to {@code timeout}. */
    public <T extends OFMessage> T expect(OFType type, Duration timeout) {
        return expect(type, m -> true, timeout);
    }

    /** As {@link #expect(OFType, Duration)}, only considering messages that {@code filter} accepts. */
    public <T extends OFMessage> T expect(OFType type, Predicate<OFMessage> filter, Duration timeout) {
        @SuppressWarnings("unchecked")
        T msg = (T) expectReceived(type, filter, timeout).msg;
        return msg;
    }

    /** As {@link #expect(OFType, Predicate, Duration)}, with the arrival time. */
    public Received expectReceived(OFType type, Predicate<OFMessage> filter, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (true) {
                checkReader();
                for (var r : received) {
                    if (!r.taken && r.msg.type() == type && filter.test(r.msg)) {
                        r.taken = true;
                        return r;
                    }
                }
                if (closed) {
                    throw new AssertionError("fake switch " + Long.toHexString(dpid) + ": connection closed ("
                            + closeCause + ") while waiting for " + type + "; received " + types());
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("fake switch " + Long.toHexString(dpid) + ": no " + type + " within "
                            + timeout.toMillis() + " ms; received " + types());
                }
                waitOnLock(left);
            }
        }
    }

    /** Asserts that no message of {@code type} beyond those already returned by {@link #expect} arrives in {@code d}. */
    public void expectNone(OFType type, Duration d) {
        if (d.toMillis() > 300) {
            throw new IllegalArgumentException("keep negative waits short");
        }
        long deadline = System.nanoTime() + d.toNanos();
        synchronized (lock) {
            while (true) {
                checkReader();
                for (var r : received) {
                    if (!r.taken && r.msg.type() == type) {
                        throw new AssertionError("unexpected " + r.msg);
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                waitOnLock(left);
            }
        }
    }

    /**
     * Waits until the controller has closed the connection (end of stream or reset), reading whatever it still sends.
     *
     * @return how long the wait took
     */
    public Duration awaitClosed(Duration timeout) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        resumeReading();
        synchronized (lock) {
            while (!closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("fake switch " + Long.toHexString(dpid) + ": the controller did not close"
                            + " the connection within " + timeout.toMillis() + " ms; received " + types());
                }
                waitOnLock(left);
            }
            if (readerFailure != null) {
                throw new AssertionError(closeCause, readerFailure);
            }
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** Waits up to {@code d} for the controller to close the connection; reads on meanwhile. */
    public boolean closesWithin(Duration d) {
        long deadline = System.nanoTime() + d.toNanos();
        synchronized (lock) {
            while (!closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                waitOnLock(left);
            }
            return true;
        }
    }

    public boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    /** Everything the controller sent so far, in order. */
    public List<OFMessage> received() {
        synchronized (lock) {
            checkReader();
            return received.stream().map(r -> r.msg).toList();
        }
    }

    public List<OFType> types() {
        synchronized (lock) {
            return received.stream().map(r -> r.msg.type()).toList();
        }
    }

    public long count(OFType type) {
        synchronized (lock) {
            return received.stream().filter(r -> r.msg.type() == type).count();
        }
    }

    private void checkReader() {
        if (readerFailure != null) {
            throw new AssertionError(closeCause, readerFailure);
        }
    }

    private void waitOnLock(long nanos) {
        try {
            TimeUnit.NANOSECONDS.timedWait(lock, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    // ------------------------------------------------------------------------------------------------ closing

    /** Closes with a TCP reset rather than a FIN. */
    public void reset() {
        try {
            socket.setSoLinger(true, 0);
        } catch (SocketException e) {
            throw new UncheckedIOException(e);
        }
        close();
    }

    private void closeSocket() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing is best effort in a test helper
        }
    }

    @Override
    public void close() {
        closing = true;
        synchronized (lock) {
            lock.notifyAll();
        }
        closeSocket();
        try {
            reader.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
