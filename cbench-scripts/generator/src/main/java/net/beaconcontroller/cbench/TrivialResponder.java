package net.beaconcontroller.cbench;

import static net.beaconcontroller.cbench.OpenFlow10.ECHO_REPLY;
import static net.beaconcontroller.cbench.OpenFlow10.ECHO_REQUEST;
import static net.beaconcontroller.cbench.OpenFlow10.ERROR;
import static net.beaconcontroller.cbench.OpenFlow10.FEATURES_REPLY;
import static net.beaconcontroller.cbench.OpenFlow10.FEATURES_REQUEST;
import static net.beaconcontroller.cbench.OpenFlow10.FLOW_MOD_BUFFER_ID_OFFSET;
import static net.beaconcontroller.cbench.OpenFlow10.HEADER_LENGTH;
import static net.beaconcontroller.cbench.OpenFlow10.HELLO;
import static net.beaconcontroller.cbench.OpenFlow10.PACKET_IN;
import static net.beaconcontroller.cbench.OpenFlow10.PACKET_IN_BUFFER_ID_OFFSET;
import static net.beaconcontroller.cbench.OpenFlow10.RESPONSE_FLOW_MOD_LENGTH;
import static net.beaconcontroller.cbench.OpenFlow10.XID_OFFSET;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The ceiling reference for controller benchmarks: an OpenFlow 1.0 "controller" that does nothing but the handshake
 * (HELLO, FEATURES_REQUEST), echo replies, and one pre-built FLOW_MOD ADD per PACKET_IN with the PACKET_IN's
 * buffer_id and xid patched in. One thread, one selector, batched writes, no allocation per message.
 *
 * <p>Answers are written once per read, all at once. While a connection's answers are not fully written it is not
 * read, so a slow switch costs bounded memory and only slows itself down.
 */
public final class TrivialResponder implements AutoCloseable {
    private static final int IN_CAPACITY = 256 * 1024;
    private static final int FLOW_MOD_SLOTS = 4096;
    /** Room for an ECHO_REPLY to the largest ECHO_REQUEST plus the handshake. */
    private static final int CTRL_CAPACITY = 80 * 1024;

    private final Selector selector;
    private final ServerSocketChannel server;
    private final PrintStream log;
    private final boolean debug;
    private final Consumer<SelectionKey> dispatch = this::dispatch;
    private final List<Connection> connections = new ArrayList<>();
    private volatile boolean closed;
    private long answered;
    private long accepted;

    /**
     * Binds to {@code address} (port 0 picks a free port).
     *
     * @param log   where connection events go
     * @param debug also log every control message
     */
    public TrivialResponder(InetSocketAddress address, PrintStream log, boolean debug) throws IOException {
        this.log = log;
        this.debug = debug;
        this.selector = Selector.open();
        this.server = ServerSocketChannel.open();
        try {
            server.bind(address, 1024);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            server.close();
            selector.close();
            throw e;
        }
    }

    /** The bound port. */
    public int port() {
        return server.socket().getLocalPort();
    }

    /** PACKET_INs answered so far; read it after {@link #run} returns. */
    public long answered() {
        return answered;
    }

    /**
     * Serves until {@link #close} is called or, when {@code maxMillis > 0}, that many ms have passed. Call from one
     * thread only.
     */
    public void run(long maxMillis) throws IOException {
        long deadline = maxMillis > 0 ? System.nanoTime() + maxMillis * 1_000_000L : Long.MAX_VALUE;
        try {
            while (!closed) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    break;
                }
                selector.select(dispatch, Math.min(1000, Math.max(1, remaining / 1_000_000)));
            }
        } finally {
            for (Connection c : connections) {
                c.close();
            }
            server.close();
            selector.close();
        }
    }

    /** Stops {@link #run} from any thread. */
    @Override
    public void close() {
        closed = true;
        selector.wakeup();
    }

    /** Command line: {@code [-a address] [-p port] [-T seconds] [-d]}; runs until killed or {@code -T} is over. */
    public static void main(String[] args) {
        String address = "127.0.0.1";
        int port = 6633;
        long seconds = 0;
        boolean debug = false;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "-a" -> address = value(args, ++i, "-a");
                    case "-p" -> port = intValue(args, ++i, "-p", 0, 65535);
                    case "-T" -> seconds = intValue(args, ++i, "-T", 0, Integer.MAX_VALUE);
                    case "-d" -> debug = true;
                    case "-h", "--help" -> {
                        System.out.println("usage: TrivialResponder [-a address (127.0.0.1)] [-p port (6633)] "
                                + "[-T seconds to run, 0 = until killed (0)] [-d]");
                        System.exit(0);
                    }
                    default -> throw new UsageException("unknown option '" + args[i] + "'");
                }
            }
        } catch (UsageException e) {
            System.err.println("responder: " + e.getMessage());
            System.exit(2);
        }
        try (var responder = new TrivialResponder(new InetSocketAddress(address, port), System.err, debug)) {
            System.err.printf("responder: listening on %s:%d%n", address, responder.port());
            responder.run(seconds * 1000);
            System.err.printf(Locale.ROOT, "responder: answered %d PACKET_INs on %d connections%n",
                    responder.answered(), responder.accepted);
        } catch (IOException e) {
            System.err.println("responder: " + e.getMessage());
            System.exit(1);
        }
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length) {
            throw new UsageException("option " + option + " needs a value");
        }
        return args[i];
    }

    private static int intValue(String[] args, int i, String option, int min, int max) throws UsageException {
        String v = value(args, i, option);
        try {
            int parsed = Integer.parseInt(v);
            if (parsed < min || parsed > max) {
                throw new UsageException("option " + option + " must be between " + min + " and " + max + ", got "
                        + parsed);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new UsageException("option " + option + " expects an integer, got '" + v + "'");
        }
    }

    private void dispatch(SelectionKey key) {
        if (key.attachment() instanceof Connection c) {
            try {
                c.onSelected();
            } catch (ProtocolException e) {
                log.println("responder: connection " + c.id + " closed: " + describe(e));
                drop(c);
            } catch (IOException e) {
                // switches hang up (or reset) at the end of every benchmark run: normal, not worth a line each
                if (debug) {
                    log.println("responder: connection " + c.id + " closed: " + describe(e));
                }
                drop(c);
            }
        } else {
            acceptAll();
        }
    }

    private void drop(Connection c) {
        c.close();
        connections.remove(c);
    }

    private void acceptAll() {
        try {
            SocketChannel ch;
            while ((ch = server.accept()) != null) {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                var c = new Connection(++accepted, ch);
                connections.add(c);
                if (debug) {
                    log.println("responder: connection " + c.id + " from " + ch.getRemoteAddress());
                }
            }
        } catch (IOException e) {
            log.println("responder: accept failed: " + describe(e));
        }
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** One switch connection; FLOW_MOD answers sit pre-built in fixed slots of {@link #out}. */
    private final class Connection {
        final long id;
        private final SocketChannel channel;
        private final SelectionKey key;
        private final ByteBuffer in = ByteBuffer.allocateDirect(IN_CAPACITY);
        private final ByteBuffer out = ByteBuffer.allocateDirect(FLOW_MOD_SLOTS * RESPONSE_FLOW_MOD_LENGTH);
        private final ByteBuffer ctrl = ByteBuffer.allocateDirect(CTRL_CAPACITY);
        private final ByteBuffer[] both = {ctrl, out};
        private int used;
        /** True while an earlier batch is still being written; nothing is read or parsed meanwhile. */
        private boolean draining;

        Connection(long id, SocketChannel channel) throws IOException {
            this.id = id;
            this.channel = channel;
            byte[] flowMod = OpenFlow10.responseFlowMod();
            for (int i = 0; i < FLOW_MOD_SLOTS; i++) {
                out.put(flowMod);
            }
            out.clear();
            this.key = channel.register(selector, SelectionKey.OP_READ, this);
            ctrl.put(OpenFlow10.headerOnly(HELLO, 1));
            ctrl.put(OpenFlow10.headerOnly(FEATURES_REQUEST, 2));
            flush();
        }

        void onSelected() throws IOException {
            if (draining) {
                flush();
                if (draining) {
                    return;
                }
            } else if (channel.read(in) < 0) {
                throw new IOException("switch closed the connection");
            }
            boolean more;
            do {
                more = parse();
                flush();
            } while (more && !draining);
        }

        /** Answers every complete message in {@link #in}; returns true when it stopped early for lack of room. */
        private boolean parse() throws IOException {
            final ByteBuffer in = this.in;
            final ByteBuffer out = this.out;
            int end = in.position();
            int p = 0;
            int slot = used;
            boolean full = false;
            while (end - p >= HEADER_LENGTH) {
                int length = in.getShort(p + 2) & 0xffff;
                if (length < HEADER_LENGTH) {
                    throw new ProtocolException("message of length " + length + " is shorter than its header");
                }
                if (end - p < length) {
                    break;
                }
                int type = in.get(p + 1);
                if (type == PACKET_IN && length >= PACKET_IN_BUFFER_ID_OFFSET + 4) {
                    if (slot == FLOW_MOD_SLOTS) {
                        full = true;
                        break;
                    }
                    int base = slot++ * RESPONSE_FLOW_MOD_LENGTH;
                    out.putInt(base + XID_OFFSET, in.getInt(p + XID_OFFSET));
                    out.putInt(base + FLOW_MOD_BUFFER_ID_OFFSET, in.getInt(p + PACKET_IN_BUFFER_ID_OFFSET));
                } else if (!handleControl(type, p, length)) {
                    full = true;
                    break;
                }
                p += length;
            }
            answered += slot - used;
            used = slot;
            if (p > 0) {
                in.limit(end).position(p);
                in.compact();
            }
            return full;
        }

        /** Returns false when ctrl has no room for the answer yet. */
        private boolean handleControl(int type, int p, int length) {
            switch (type) {
                case ECHO_REQUEST -> {
                    if (ctrl.remaining() < length) {
                        return false;
                    }
                    int start = ctrl.position();
                    ctrl.put(start, in, p, length);
                    ctrl.put(start + 1, (byte) ECHO_REPLY);
                    ctrl.position(start + length);
                }
                case FEATURES_REPLY -> {
                    if (debug && length >= 16) {
                        log.printf("responder: connection %d is dpid %d%n", id, in.getLong(p + 8));
                    }
                }
                case ERROR -> log.printf("responder: connection %d sent ERROR type %d code %d%n", id,
                        length >= 12 ? in.getShort(p + 8) : -1, length >= 12 ? in.getShort(p + 10) : -1);
                default -> {
                    if (debug && type != HELLO) {
                        log.printf("responder: connection %d: ignored message type %d%n", id, type);
                    }
                }
            }
            return true;
        }

        /** Writes the batch (control first, then FLOW_MODs); keeps {@link #draining} until all of it is out. */
        private void flush() throws IOException {
            if (!draining) {
                if (used == 0 && ctrl.position() == 0) {
                    return;
                }
                ctrl.flip();
                out.limit(used * RESPONSE_FLOW_MOD_LENGTH).position(0);
            }
            if (ctrl.hasRemaining()) {
                channel.write(both);
            } else {
                channel.write(out);
            }
            boolean done = !ctrl.hasRemaining() && !out.hasRemaining();
            if (done) {
                ctrl.clear();
                out.clear();
                used = 0;
            }
            if (done == draining) { // the state flips
                draining = !done;
                key.interestOps(draining ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
            }
        }

        void close() {
            try {
                channel.close();
            } catch (IOException e) {
                // already failing or shutting down; the socket is gone either way
            }
        }
    }
}
