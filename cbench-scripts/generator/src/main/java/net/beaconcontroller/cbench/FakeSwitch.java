package net.beaconcontroller.cbench;

import static net.beaconcontroller.cbench.OpenFlow10.BARRIER_REPLY;
import static net.beaconcontroller.cbench.OpenFlow10.BARRIER_REQUEST;
import static net.beaconcontroller.cbench.OpenFlow10.DEFAULT_MISS_SEND_LEN;
import static net.beaconcontroller.cbench.OpenFlow10.ECHO_REPLY;
import static net.beaconcontroller.cbench.OpenFlow10.ECHO_REQUEST;
import static net.beaconcontroller.cbench.OpenFlow10.ERROR;
import static net.beaconcontroller.cbench.OpenFlow10.FEATURES_REQUEST;
import static net.beaconcontroller.cbench.OpenFlow10.FLOW_MOD;
import static net.beaconcontroller.cbench.OpenFlow10.GET_CONFIG_REQUEST;
import static net.beaconcontroller.cbench.OpenFlow10.HEADER_LENGTH;
import static net.beaconcontroller.cbench.OpenFlow10.HELLO;
import static net.beaconcontroller.cbench.OpenFlow10.LEARN_LENGTH;
import static net.beaconcontroller.cbench.OpenFlow10.PACKET_IN_BUFFER_ID_OFFSET;
import static net.beaconcontroller.cbench.OpenFlow10.PACKET_OUT;
import static net.beaconcontroller.cbench.OpenFlow10.PROBE_LENGTH;
import static net.beaconcontroller.cbench.OpenFlow10.PROBE_SOURCE_MAC_INDEX_OFFSET;
import static net.beaconcontroller.cbench.OpenFlow10.SET_CONFIG;
import static net.beaconcontroller.cbench.OpenFlow10.STATS_DESC;
import static net.beaconcontroller.cbench.OpenFlow10.STATS_REQUEST;
import static net.beaconcontroller.cbench.OpenFlow10.VENDOR;
import static net.beaconcontroller.cbench.OpenFlow10.XID_OFFSET;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * One emulated OpenFlow 1.0 switch on a non-blocking socket, driven by the generator's single selector thread.
 *
 * <p>Hot path: probes live pre-built in {@link #data} at fixed 82-byte slots; a refill patches xid, buffer_id and 4
 * MAC bytes per slot and nothing else. The buffer is refilled only once fully sent, so slots never move and nothing is
 * copied. Reads look at headers only, plus the one field the counting rule needs. Control replies (rare) go through
 * {@link #ctrl} and are written only at a probe boundary so the byte stream stays well framed.
 */
final class FakeSwitch {
    /** Bytes of probes handed to the socket per refill in throughput mode: large writes, few syscalls. */
    static final int THROUGHPUT_BATCH_BYTES = 64 * 1024;
    private static final int IN_CAPACITY = 128 * 1024;
    /** Room for the largest reply: an ECHO_REPLY to a 64 KiB ECHO_REQUEST. */
    private static final int CTRL_CAPACITY = 80 * 1024;
    /** Refills per selector wake-up in throughput mode, so one switch cannot starve the others. */
    private static final int MAX_REFILLS_PER_EVENT = 4;
    /** cbench cycles buffer ids over this many values. */
    private static final int BUFFER_IDS = 100_000;

    private enum State {
        /** Waiting for FEATURES_REQUEST. */
        HANDSHAKE,
        /** FEATURES_REPLY sent, waiting {@code -D} ms. */
        WAITING,
        /** Sends probes while the generator is in a test loop. */
        READY
    }

    final int number;
    final long dpid;
    private final SocketChannel channel;
    private final SelectionKey key;
    private final boolean throughput;
    private final boolean learn;
    private final int delayMs;
    private final int macs;
    private final PrintStream debug;

    private final ByteBuffer in = ByteBuffer.allocateDirect(IN_CAPACITY);
    private final ByteBuffer ctrl = ByteBuffer.allocateDirect(CTRL_CAPACITY);
    private final ByteBuffer data;
    private final int slots;
    private final byte[] featuresReply;

    private State state = State.HANDSHAKE;
    private long readyAtNanos;
    private boolean testing;
    private boolean parseBlocked;
    private int interest = -1;

    private int xid = 1;
    private int bufferId = 1;
    private int macIndex;
    private int inFlight;
    private long responses;
    private int configFlags;
    private int missSendLen = DEFAULT_MISS_SEND_LEN;

    /**
     * Takes over a connected channel, registers it and sends HELLO.
     *
     * @param number 1-based switch number, for messages
     * @param debug  where protocol events go, or null when not debugging
     */
    FakeSwitch(int number, long dpid, SocketChannel channel, Selector selector, CbenchOptions options,
            PrintStream debug) throws IOException {
        this.number = number;
        this.dpid = dpid;
        this.channel = channel;
        this.throughput = options.throughput();
        this.learn = options.learnDstMacs();
        this.delayMs = options.delayMs();
        this.macs = options.macs();
        this.debug = debug;
        this.featuresReply = OpenFlow10.featuresReply(dpid, 0);
        this.slots = throughput ? THROUGHPUT_BATCH_BYTES / PROBE_LENGTH : 1;
        this.data = ByteBuffer.allocateDirect(slots * PROBE_LENGTH);
        byte[] probe = OpenFlow10.probePacketIn(dpid);
        for (int i = 0; i < slots; i++) {
            data.put(probe);
        }
        data.flip().limit(0); // nothing to send yet
        channel.configureBlocking(false);
        this.key = channel.register(selector, 0, this);
        ctrl.put(OpenFlow10.headerOnly(HELLO, xid++));
        flush();
        updateInterest();
    }

    /** Handles a selector wake-up: reads and answers, then writes as much as the socket takes. */
    void onSelected() throws IOException {
        int ready = key.readyOps();
        if ((ready & SelectionKey.OP_READ) != 0 && !parseBlocked) {
            if (channel.read(in) < 0) {
                throw new ClosedChannelException();
            }
            parse();
        }
        if ((ready & SelectionKey.OP_WRITE) != 0 || ctrl.position() > 0 || !throughput) {
            flush();
        }
        while (parseBlocked && ctrl.position() == 0) {
            parseBlocked = false;
            parse();
            flush();
        }
        updateInterest();
    }

    /**
     * Starts (a test loop) or stops (the pause after it) probing and counting. A new loop forgets a latency probe
     * still unanswered, as cbench does.
     */
    void setTesting(boolean testing) throws IOException {
        this.testing = testing;
        if (testing) {
            if (!throughput) {
                inFlight = 0;
            }
            flush();
        }
        updateInterest();
    }

    /** Leaves the {@code -D} wait once it is over; returns whether the switch is still waiting. */
    boolean tick(long nowNanos) throws IOException {
        if (state != State.WAITING) {
            return false;
        }
        if (nowNanos - readyAtNanos < 0 || ctrl.remaining() < LEARN_LENGTH) {
            return true;
        }
        becomeReady();
        flush();
        updateInterest();
        return false;
    }

    /** Nanotime at which a waiting switch starts; meaningful while {@link #tick} returns true. */
    long readyAtNanos() {
        return readyAtNanos;
    }

    /** Responses counted since the last call. */
    long takeResponses() {
        long r = responses;
        responses = 0;
        return r;
    }

    /** Whether the controller has sent FEATURES_REQUEST. */
    boolean handshakeDone() {
        return state != State.HANDSHAKE;
    }

    void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing at the end of a run; nothing is left to lose
        }
    }

    private void parse() throws IOException {
        final ByteBuffer in = this.in;
        int end = in.position();
        int p = 0;
        while (end - p >= HEADER_LENGTH) {
            int length = in.getShort(p + 2) & 0xffff;
            if (length < HEADER_LENGTH) {
                throw new ProtocolException("message of length " + length + " (type " + in.get(p + 1)
                        + ") is shorter than its header");
            }
            if (end - p < length) {
                break;
            }
            int type = in.get(p + 1);
            if (type == FLOW_MOD || type == PACKET_OUT) {
                if (ResponseRule.countsAsResponse(in, p, length)) {
                    onResponse();
                }
            } else if (!handleControl(type, p, length)) {
                parseBlocked = true; // no room for the reply; resume once ctrl drains
                break;
            }
            p += length;
        }
        if (p > 0) {
            in.limit(end).position(p);
            in.compact();
        }
    }

    private void onResponse() {
        if (state == State.READY) {
            if (testing) {
                responses++;
            }
            if (--inFlight < 0) {
                inFlight = 0;
            }
        }
    }

    /** Answers a non-response message; returns false when ctrl has no room for the answer yet. */
    private boolean handleControl(int type, int p, int length) {
        int xidIn = in.getInt(p + XID_OFFSET);
        switch (type) {
            case HELLO -> log("got HELLO (version " + in.get(p) + ")");
            case ERROR -> log("got ERROR type " + (length >= 12 ? in.getShort(p + 8) : -1) + " code "
                    + (length >= 12 ? in.getShort(p + 10) : -1));
            case ECHO_REQUEST -> {
                if (ctrl.remaining() < length) {
                    return false;
                }
                int start = ctrl.position();
                ctrl.put(start, in, p, length);
                ctrl.put(start + 1, (byte) ECHO_REPLY);
                ctrl.position(start + length);
                log("answered ECHO_REQUEST");
            }
            case FEATURES_REQUEST -> {
                if (ctrl.remaining() < featuresReply.length + LEARN_LENGTH) {
                    return false;
                }
                putWithXid(featuresReply, xidIn);
                log("answered FEATURES_REQUEST");
                if (state == State.HANDSHAKE) {
                    if (delayMs > 0) {
                        state = State.WAITING;
                        readyAtNanos = System.nanoTime() + delayMs * 1_000_000L;
                    } else {
                        becomeReady();
                    }
                }
            }
            case GET_CONFIG_REQUEST -> {
                if (ctrl.remaining() < 12) {
                    return false;
                }
                ctrl.put(OpenFlow10.getConfigReply(xidIn, configFlags, missSendLen));
                unblockLatencyProbe();
                log("answered GET_CONFIG_REQUEST");
            }
            case SET_CONFIG -> {
                if (length >= 12) {
                    configFlags = in.getShort(p + 8) & 0xffff;
                    missSendLen = in.getShort(p + 10) & 0xffff;
                }
                log("got SET_CONFIG miss_send_len=" + missSendLen);
            }
            case VENDOR -> {
                int errorLength = OpenFlow10.errorLength(length);
                if (ctrl.remaining() < errorLength) {
                    return false;
                }
                ctrl.put(OpenFlow10.badVendorErrorHeader(xidIn, length));
                int copied = errorLength - 12;
                ctrl.put(ctrl.position(), in, p, copied);
                ctrl.position(ctrl.position() + copied);
                unblockLatencyProbe();
                log("answered VENDOR with ERROR bad vendor");
            }
            case STATS_REQUEST -> {
                if (length >= 12 && (in.getShort(p + 8) & 0xffff) == STATS_DESC) {
                    byte[] reply = OpenFlow10.descStatsReply(xidIn);
                    if (ctrl.remaining() < reply.length) {
                        return false;
                    }
                    ctrl.put(reply);
                    unblockLatencyProbe();
                    log("answered description STATS_REQUEST");
                } else {
                    log("ignored non-description STATS_REQUEST");
                }
            }
            case BARRIER_REQUEST -> {
                if (ctrl.remaining() < HEADER_LENGTH) {
                    return false;
                }
                ctrl.put(OpenFlow10.headerOnly(BARRIER_REPLY, xidIn));
                log("answered BARRIER_REQUEST");
            }
            default -> log("ignored message type " + type);
        }
        return true;
    }

    /** cbench's allowance for controllers that stall on configuration requests: re-arm the latency probe. */
    private void unblockLatencyProbe() {
        if (!throughput && inFlight == 1) {
            inFlight = 0;
        }
    }

    private void becomeReady() {
        if (learn) {
            ctrl.put(OpenFlow10.learnPacketIn(dpid, xid++));
            log("sent gratuitous ARP to learn the destination MAC");
        }
        state = State.READY;
    }

    private void putWithXid(byte[] message, int xidValue) {
        int start = ctrl.position();
        ctrl.put(message);
        ctrl.putInt(start + XID_OFFSET, xidValue);
    }

    /** Writes pending control messages, then probes, until the socket is full or nothing is left to send. */
    private void flush() throws IOException {
        if (ctrl.position() > 0) {
            if (!writeProbesToBoundary()) {
                return;
            }
            ctrl.flip();
            channel.write(ctrl);
            boolean drained = !ctrl.hasRemaining();
            ctrl.compact();
            if (!drained) {
                return;
            }
        }
        for (int round = 0; round < MAX_REFILLS_PER_EVENT; round++) {
            if (!data.hasRemaining() && !refill()) {
                return;
            }
            channel.write(data);
            if (data.hasRemaining()) {
                return;
            }
        }
    }

    private boolean writeProbesToBoundary() throws IOException {
        int partial = data.position() % PROBE_LENGTH;
        if (!data.hasRemaining() || partial == 0) {
            return true;
        }
        int limit = data.limit();
        data.limit(data.position() + PROBE_LENGTH - partial);
        channel.write(data);
        boolean done = !data.hasRemaining();
        data.limit(limit);
        return done;
    }

    /** Patches the next batch of probes in place; false when this switch must not send now. */
    private boolean refill() {
        if (!canGenerate()) {
            return false;
        }
        final ByteBuffer data = this.data;
        data.clear(); // absolute puts check against the limit
        int n = throughput ? slots : 1;
        int x = xid;
        int b = bufferId;
        int m = macIndex;
        for (int i = 0, off = 0; i < n; i++, off += PROBE_LENGTH) {
            data.putInt(off + XID_OFFSET, x++);
            data.putInt(off + PACKET_IN_BUFFER_ID_OFFSET, b);
            data.putInt(off + PROBE_SOURCE_MAC_INDEX_OFFSET, m);
            if (++b == BUFFER_IDS) {
                b = 0;
            }
            if (++m == macs) {
                m = 0;
            }
        }
        xid = x;
        bufferId = b;
        macIndex = m;
        if (!throughput) {
            inFlight += n;
        }
        data.limit(n * PROBE_LENGTH).position(0);
        return true;
    }

    private boolean canGenerate() {
        return testing && state == State.READY && (throughput || inFlight == 0);
    }

    private void updateInterest() {
        boolean wantsWrite = ctrl.position() > 0 || data.hasRemaining() || canGenerate();
        int want = (parseBlocked ? 0 : SelectionKey.OP_READ) | (wantsWrite ? SelectionKey.OP_WRITE : 0);
        if (want != interest) {
            key.interestOps(want);
            interest = want;
        }
    }

    private void log(String event) {
        if (debug != null) {
            debug.println("switch " + number + " (dpid " + dpid + "): " + event);
        }
    }
}
